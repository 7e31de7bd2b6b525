"""What tests share that is not a test: input builders, example plug-ins, the tiny models and the data they read,
and the slow obvious references the fast code is checked against (conftest.py files hold only fixtures over these)."""
