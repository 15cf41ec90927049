"""Shipped model weights (package data) and the script that trains them."""
