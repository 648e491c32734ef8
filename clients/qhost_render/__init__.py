"""Renderers of qhost(1)'s reply: Grid Engine 6.2u5's text layout and its ``-xml`` document."""
