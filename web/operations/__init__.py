"""Running the server: settings, logs, metrics, and the small tools
the rooms above share (breaker, throttles, offloading, the Redis client)."""
