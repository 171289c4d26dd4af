"""A small web glossary for the WebGlossary example provider: answers
POST /translate with {"q": <text>, "to": "es"} by {"translation": "<each
known word glossed>"}, on 127.0.0.1 only. Prints its port on the first line of stdout, then serves
until killed. Usage: python3 glossary_server.py [port]"""
import http.server
import json
import re
import sys

SPANISH = {
    "the": "el", "cat": "gato", "dog": "perro", "is": "es", "on": "en", "table": "mesa", "house": "casa",
    "hello": "hola", "world": "mundo", "good": "bueno", "morning": "mañana", "book": "libro", "red": "rojo",
}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        try:
            request = json.loads(self.rfile.read(length).decode())
        except ValueError:
            self.answer(400, {"error": "not JSON"})
            return
        if self.path != "/translate" or not isinstance(request, dict) or request.get("to") != "es" or not isinstance(request.get("q"), str):
            self.answer(404, {"error": "unknown call or language"})
            return
        words = re.findall(r"\w+", request["q"])
        self.answer(200, {"translation": " ".join(SPANISH.get(word.lower(), word) for word in words)})

    def answer(self, status, body):
        data = json.dumps(body, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
