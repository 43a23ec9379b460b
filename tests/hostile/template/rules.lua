local game = require('base')
return game
