-- The stats hook returns 100,000 distinct tags per game: the report bounds what it keeps.
-- class: 2
-- command: simulate {game} -n 30 --players 2 --bots random --threads 1
-- expect-exit: 0|1
-- max-output: 4000000
-- limit: 20
function game.stats(ctx, state)
  local tags = {}
  for i = 1, 100000 do tags[i] = "tag:" .. i .. ":" .. state.data.added[1] end
  return {tags = tags}
end
