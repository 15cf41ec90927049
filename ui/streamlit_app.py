"""The sudokucam web app (Streamlit). Start it with `sudokucam ui`.

Streamlit runs this file as a script, outside the package, so it imports the package
by its absolute name; everything the page shows lives in `sudokucam.ui.app`
(kept outside that folder so Streamlit does not take `ui/app/pages/` for its own multipage
folder).
"""

from __future__ import annotations

import importlib

# Under `sudokucam ui --lan` a browser without the link's token sees only a short page.
importlib.import_module("sudokucam.ui.lan.gate").require_access()
importlib.import_module("sudokucam.ui.app.layout").run_app()
