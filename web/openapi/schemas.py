"""The shapes' JSON Schemas, made by pydantic from the TypedDicts the views build.

Every TypedDict a shape reaches becomes a component of the document
(``#/components/schemas/<its class name>``), and so does every closed set
(``StrEnum``) it names; each is closed (``additionalProperties: false``), so an
answer that carries a key its shape lacks fails the schema (tests/test_openapi.py,
schemathesis).  A shape's docstring and its fields' attribute docstrings are the
words.  Nothing here runs on a request: the document is made once per app, on
its first reading.

>>> from web.http.error_body import ErrorBody
>>> (error,), components = shape_schemas([ErrorBody])
>>> error
{'$ref': '#/components/schemas/ErrorBody'}
>>> components["ErrorBody"]["additionalProperties"], components["ErrorBody"]["required"]
(False, ['error'])
>>> components["ErrorBody"]["properties"]["error"]["description"]
'What is wrong, in words.'
"""

from __future__ import annotations

import ast
import functools
import inspect
import itertools
import textwrap
from collections.abc import Sequence
from typing import Any, cast

from pydantic import TypeAdapter
from pydantic.json_schema import GenerateJsonSchema
from pydantic_core import core_schema
from typing_extensions import TypedDict

Schema = dict[str, Any]
REF = "#/components/schemas/{model}"


class _Closed(GenerateJsonSchema):
    """pydantic's JSON Schema, every object closed, its fields' words from their attribute docstrings,
    without the titles it derives from names."""

    def typed_dict_schema(self, schema: core_schema.TypedDictSchema) -> Schema:
        made = super().typed_dict_schema(schema)
        made["additionalProperties"] = False
        shape: type = schema["cls"]
        for name, words in field_words(shape).items():
            if name in made["properties"]:
                made["properties"][name]["description"] = words
        return made

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


@functools.cache
def field_words(shape: Any) -> dict[str, str]:
    """The attribute docstrings (PEP 257) of a TypedDict's fields, its bases' included, by field.

    pydantic reads a class's own only; a TypedDict's fields come from all its bases.
    """
    words: dict[str, str] = {}
    for base in getattr(shape, "__orig_bases__", ()):
        if isinstance(base, type) and hasattr(base, "__annotations__"):
            words.update(field_words(base))
    try:
        source = textwrap.dedent(inspect.getsource(shape))
    except (OSError, TypeError):  # made at run time: no source, no words
        return words
    body = cast(ast.ClassDef, ast.parse(source).body[0]).body
    for field, after in itertools.pairwise(body):
        if (
            isinstance(field, ast.AnnAssign)
            and isinstance(field.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            words[field.target.id] = " ".join(after.value.value.split())
    return words


def shape_schemas(shapes: Sequence[object]) -> tuple[list[Schema], dict[str, Schema]]:
    """Each shape's schema (a ``$ref`` for a TypedDict), and the components they refer to, by name.

    Raises ValueError when two classes of one name would share a component.
    """
    fields = {f"shape{index}": shape for index, shape in enumerate(shapes)}
    holder = cast(Any, TypedDict)("Declared", fields)
    made = TypeAdapter(holder).json_schema(ref_template=REF, schema_generator=_Closed, mode="serialization")
    components: dict[str, Schema] = made.get("$defs", {})
    for component in components.values():
        component.pop("title", None)  # the component's name says it
    clashing = [name for name in components if "__" in name]
    if clashing:
        raise ValueError(f"two shapes share a class name, so their components would too: {clashing}")
    return [made["properties"][name] for name in fields], components
