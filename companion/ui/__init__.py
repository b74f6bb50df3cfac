"""Widgets and screens shared by every game."""
