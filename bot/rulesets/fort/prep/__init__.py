"""The fort's prep page binding (``binding.PREP``): the forms of a fort battle (``forms``), a draft checked
as the bot checks it (``build``) and the page written from the catalogues (``page``)."""
