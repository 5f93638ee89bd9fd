# analysis/local.mk: build rules of this part (see Makefile.am)
# libcpmodel: the evaluation of every model (analysis/cp_model.h), one
# function per formula, libc and libm only: the preloaded library links
# it and nothing else of analysis/.
# libcpreduce: the matching of sends with receives and of collective
# instances, and the histograms of mu (analysis/cp_match.h,
# analysis/cp_hist.h): libc and libm only, so that the preloaded library
# can match and reduce at MPI_Finalize with the code the CLI runs.
# libcpanalysis: estimation of the models from measurements and
# statistics (GSL), linked by the CLI, the calibrator and the tests; it
# carries libcpmodel, whose formulas its predictions use, and
# libcpreduce.
noinst_LTLIBRARIES += libcpmodel.la libcpreduce.la libcpanalysis.la
libcpmodel_la_SOURCES = \
	analysis/cp_err.h analysis/cp_err.c \
	analysis/cp_model.h \
	analysis/cp_interp.c \
	analysis/cp_lmo_eval.c \
	analysis/cp_log3p_eval.c \
	analysis/cp_baseline_eval.c \
	analysis/cp_coll.h analysis/cp_coll_rules.c analysis/cp_coll_sched.c \
	analysis/cp_taulop.h analysis/cp_taulop_eval.c \
	analysis/cp_plogpt_eval.c
libcpmodel_la_LIBADD = -lm
libcpreduce_la_SOURCES = \
	analysis/cp_match.h analysis/cp_match.c \
	analysis/cp_hist.h analysis/cp_hist.c
libcpreduce_la_LIBADD = -lm
libcpanalysis_la_SOURCES = \
	analysis/cp_stats.h analysis/cp_stats.c \
	analysis/cp_breaks.h analysis/cp_breaks.c \
	analysis/cp_nnls.h analysis/cp_nnls.c \
	analysis/cp_lmo.h analysis/cp_lmo_fit.c \
	analysis/cp_lmo_ls.h analysis/cp_lmo_ls.c \
	analysis/cp_log3p.h analysis/cp_log3p_fit.c \
	analysis/cp_baseline.h analysis/cp_baseline_fit.c \
	analysis/cp_taulop_fit.h analysis/cp_taulop_fit.c \
	analysis/cp_plogpt_fit.h analysis/cp_plogpt_fit.c \
	analysis/cp_replay.h analysis/cp_replay.c
libcpanalysis_la_CFLAGS = $(AM_CFLAGS) $(GSL_CFLAGS)
libcpanalysis_la_LIBADD = libcpmodel.la libcpreduce.la $(GSL_LIBS) -lm
