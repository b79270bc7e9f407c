"""Character sheets: ゆとシートⅡ's Sword World 2.5 JSON read into what a battle and a palette use
(``ytsheet``), the values kept (``model``), the classes as a table (``classes``), and the chat palette
ゆとシート would generate (``palette_gen``). Pure: no I/O (fetching a URL is bot/sheet_fetch.py)."""
