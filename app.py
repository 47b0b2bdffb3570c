"""The web app: ``gunicorn app:app`` serves the one built here (web/assembly.py builds it).

Settings come from environment variables (docs/deploy.md); tests build their own
apps with ``web.assembly.create_app(config)``.
"""

from web.assembly import create_app

app = create_app()
