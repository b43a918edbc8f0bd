"""What the tests share, one module per concern (``tests`` is on ``sys.path``).

- :mod:`support.service`: the real reference service in its own process (``Service``,
  ``start_service``, ``running_service``) and a fresh org per test.
- :mod:`support.chat`: raw HTTP helpers of the chat, retrieval and engine tests.
- :mod:`support.platform`: what the service persisted, uploads and multipart bodies.
- :mod:`support.documents`: small real documents (PDF, DOCX, XLSX, ...).
- :mod:`support.upstream`: a scripted OpenAI-compatible model server.
- :mod:`support.clients`: one test body for both clients.
- :mod:`support.fault_proxy`: a fault-injecting reverse proxy before the service.
- :mod:`support.magics`: running magics in a test shell and reading what they showed.
- :mod:`support.lab`: the running JupyterLab of the browser tests.
"""
