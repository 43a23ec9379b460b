-- The template plays to the end.
test("the template plays to the end", function()
  local g = new_game{players = 2, seed = 1}
  g:play_random()
  expect_eq(g:to_move(), {})
end)
