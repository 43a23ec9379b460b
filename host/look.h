// A game's look (data/look.json, schemas/look.schema.json): how the studio pictures the state
// and the data (card faces, tiles, tokens, counters with caps, tracks, seat colours), drawn by
// the page with no game code. Loaded with the game's files but not a rules file: it is not in
// the rules' fingerprint. What the schema cannot check (colours that parse, data lists and ids
// that exist) is checked here, naming the file and the JSON path.
#pragma once

#include "host/loader.h"

namespace plateau {

// Reads data/look.json from the game's folder, else its nearest base's (a variant inherits its
// base's look), validates it and stores it in files->look (null when no folder has one, or when
// it is refused: LoadGameFiles keeps the refusal in files->look_error).
Status LoadLook(GameFiles* files);

// "#rgb" or "#rrggbb" (the forms a look's colours take).
bool IsColour(const std::string& text);

}  // namespace plateau
