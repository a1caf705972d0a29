"""What is told of a game: the live web view, the history, the chart and the unit's voice."""
