"""What every answer gets (errors, headers, compression, protocol details),
and the server's guards against slow or greedy connections."""
