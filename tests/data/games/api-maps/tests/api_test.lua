-- Every call of the maps' API, through a scratch rules script would need a VM of its own;
-- here they run through the rules' own moves and the saved state.

test("a save of a tile map keeps its tiles in order and rebuilds the same features", function()
  local g = new_game{ seed = 2 }
  g:play_random(6, 1)
  local copy = load_game(g:save())
  expect_eq(copy:tile_map("roads"), g:tile_map("roads"))
  expect_eq(copy:hash(), g:hash())
end)
