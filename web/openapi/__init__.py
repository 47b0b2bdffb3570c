"""The API's contract, declared beside each route, and the OpenAPI document assembled from it.

- ``declarations``: what a route takes and answers (``@declare`` under its
  route decorator): its body and parameters, each answer's shape by status,
  its refusals in words, the links to the operations that follow;
- ``fields``: the small types the answers' shapes are written in (a count, a
  cell's ``[row, col]``, a board's rows), each with its JSON Schema;
- ``schemas``: every shape's JSON Schema, made by pydantic from the TypedDicts
  the views build, closed (a key the shape lacks is not allowed);
- ``document``: /openapi.json, assembled from an app's routes and their declarations.
"""
