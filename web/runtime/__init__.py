"""Small tools the rooms above share while the server runs: a circuit breaker, work off the event
loop, per-process values, a value computed at most once an interval, a bounded LRU map, the Redis
client, an app's entry of its extensions."""
