"""The bank as a service: the daemon's loop, the control socket and its client, the settings,
the journal and the data directory."""
