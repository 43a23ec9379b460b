-- a script error whose message holds escape sequences: shown inert, still naming the line.
-- class: 30.7
-- command: validate {game}
-- expect-exit: 2
-- expect: games/hostile/rules.lua:
-- check: ! grep -q $'\x1b' "$OUT"
function game.setup(ctx, state) error("\27[2J\27]0;pwned\7 cleared") end
