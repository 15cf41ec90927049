"""Batch runs over folders, photos and PDF pages: inputs, work units, store, lock.

Not a vision stage: it drives the pipeline; nothing under `vision.grid` or `vision.read`
imports it.
"""
