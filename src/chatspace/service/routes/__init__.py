"""HTTP routes, one router per resource; HTTP only: parse, call one operation, answer."""
