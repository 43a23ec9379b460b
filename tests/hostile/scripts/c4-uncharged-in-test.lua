-- A scenario test (200,000,000 instructions allowed) loops over an uncharged comparison:
-- charged, it fails within seconds naming the test file.
-- class: 4
-- file: tests/case.lua
-- command: test {game} --scenarios-only --scenario {game}/tests/case.lua
-- expect-exit: 1
-- expect: games/hostile/tests/case.lua
-- expect: instruction budget
-- limit: 15
local A = ("x"):rep(1 << 24)
local B = A:sub(1, -2) .. "y"
test("compare forever", function()
  for i = 1, 100000000 do local _ = A < B end
end)
