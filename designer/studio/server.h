// plateau studio: the designer's web page (the table drawn, play, live reload, simulations as
// plots), served on 127.0.0.1 by the plateau binary. See studio.cc and designer/studio/.
#pragma once

#include "designer/studio/session.h"

namespace plateau {

// Serves until SIGINT/SIGTERM; prints the page's URL (with its access token) on stdout.
int RunStudio(const StudioOptions& options);

}  // namespace plateau
