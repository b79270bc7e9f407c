"""What the prep page's browser tests share: the page opened in a new context, and waiting until its
draft as it is now has been checked."""

from __future__ import annotations

from typing import Any


def open_page(browser: Any, url: str, **context: Any) -> Any:
    """The prep page in a new browser context, its first check answered; ``page.errors`` collects the
    script's errors, ``page.requests`` every URL it asked for."""
    # Playwright's wait_for_function evaluates its string in the page, which the page's CSP forbids
    # (no 'unsafe-eval'); the page itself runs under its CSP in test_prep_browser's CSP test
    context.setdefault("bypass_csp", True)
    page = browser.new_context(accept_downloads=True, **context).new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.requests = []
    page.on("request", lambda request: page.requests.append(request.url))
    page.goto(url)
    settle(page)
    return page


def settle(page: Any) -> None:
    """Until the draft as it is now has been checked: the page's first check, and the check after its
    last edit, answered (``body[data-checked]`` set, ``body[data-pending]`` gone)."""
    page.wait_for_function("document.body.dataset.checked && !document.body.dataset.pending", timeout=20000)
