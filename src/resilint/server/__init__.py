"""The language server (``resilint server``): diagnostics and code actions from the engine and
codemods of ``resilint check`` and ``resilint fix``, kept warm in memory, over stdio.

``pygls`` and ``lsprotocol`` come with the ``server`` extra (``pip install 'resilint[server]'``);
nothing else in resilint imports this package.
"""
