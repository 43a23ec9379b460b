-- game.categories lists a name that is not UTF-8: refused at load naming the field.
-- class: 7
-- command: validate {game}
-- expect-exit: 2
-- expect: games/hostile/rules.lua
-- expect: categories
-- expect: UTF-8
game.categories = {"bumps", "caf\xe9"}
