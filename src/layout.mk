# src/layout.mk: build rules of this part (see Makefile.am)
