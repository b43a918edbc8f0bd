"""HTTP routes, one router per resource; thin: parse, authorize, call the store, answer."""
