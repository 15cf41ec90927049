"""The sudokucam web app (Streamlit). Start it with `sudokucam ui`.

Streamlit runs this file as a script, outside the package, so it imports the package
by its absolute name; everything the page shows lives in `sudokucam.ui.views`.
"""

from __future__ import annotations

import importlib

importlib.import_module("sudokucam.ui.views.layout").run_app()
