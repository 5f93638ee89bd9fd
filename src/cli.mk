# src/cli.mk: build rules of this part (see Makefile.am)
