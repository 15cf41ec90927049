"""`sudokucam ui --lan`: the app over HTTPS on the local network, behind a token in the link.

`cert` makes and keeps the self-signed certificate, `access` the token and its check,
`link` the links and the QR code printed in the terminal, `gate` the page a browser
without the token sees.
"""
