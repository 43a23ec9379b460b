-- The rules' top-level chunk loops over an uncharged call: the load budget stops it within
-- seconds (validate), naming the file.
-- class: 4
-- command: validate {game}
-- expect-exit: 2
-- expect: games/hostile/rules.lua
-- expect: instruction budget
-- limit: 10
local S = ("a"):rep(1 << 24)
local P = ("a"):rep(254) .. "b"
for i = 1, 1000000 do S:find(P) end
