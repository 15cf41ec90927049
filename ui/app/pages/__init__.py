"""The app's tabs, one module per thing a person can do; the Play tab's own parts
(`play_board`, `play_help`, `play_start`) sit beside it."""
