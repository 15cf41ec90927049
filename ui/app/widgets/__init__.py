"""Pieces of the page that several tabs share: grid editor and view, images, photo input,
hints, messages and the photo's status."""
