# `flet build` needs an entry file at the root; the app itself lives in the companion package.
from companion.__main__ import main

main(["desktop"])
