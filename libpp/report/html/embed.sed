# A text file as the lines of a C string literal (libpp/report/Makefile.am):
# backslashes, quotes and '?' (no trigraphs) escaped, each line ended "\n".
s/\\/\\\\/g
s/"/\\"/g
s/?/\\?/g
s/^/"/
s/$/\\n"/
