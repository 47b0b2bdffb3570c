"""The JSON API: its routes, the request body, the answers' shapes and their OpenAPI description."""
