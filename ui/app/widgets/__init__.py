"""Pieces of the page that several tabs share: grids, photos, messages."""
