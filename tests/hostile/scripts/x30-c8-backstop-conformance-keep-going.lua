-- conformance with --keep-going on a score past the backstop: later games skip at once.
-- class: 30.8
-- command: test {game} --games 4 --keep-going --conformance-only
-- expect-exit: 1
-- limit: 25
function game.score(ctx, state) local s = ("x"):rep(1 << 23) local t = ("x"):rep(1 << 23) while true do local b = (s == t) end end
