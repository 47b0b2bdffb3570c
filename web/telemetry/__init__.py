"""What the server tells its operators: one log line per request, JSON logs, Prometheus metrics."""
