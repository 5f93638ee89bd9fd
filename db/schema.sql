-- schema.sql - the commprof database schema, version 4 (CP_DB_SCHEMA_VERSION
-- in db/cp_db.h).  Embedded into db/cp_db.c at build time; the lines
-- "-- @merged", "-- @reduced" and "-- @indexes" split it into four parts:
--   1. rank-NNNNN.db, written by the library inside each rank;
--   2. commprof.db, the merge of all rank files made by the CLI: the same
--      tables with a leading rank column (world rank of the writer);
--   3. the reduction of the run (src/reduce/cp_red.h): part of
--      commprof.db, and alone in commprof-reduced.db, which rank 0 writes
--      at MPI_Finalize when the job reduced itself;
--   4. indexes of commprof.db, created once the rows are in.
-- Units: times are integer nanoseconds (suffix _ns), sizes integer bytes
-- (suffix _bytes), addresses integers (virtual addresses of the rank).
-- A sentinel of db/cp_db.h ("none") is stored as SQL NULL.
-- Beside each rank file, rank-NNNNN.db-reserve holds 64 KiB
-- (CP_DB_RESERVE_BYTES) from the rank's open to its close: when the disk
-- fills up, the rows that fit are kept, the rank warns once, stops
-- writing rows and deletes the reserve to make room for its last aggs
-- and meta.  A rank killed before its close leaves the file; the reader
-- (cp_db_open_dir) removes it when meta host is this host and meta pid
-- has ended.
-- A line "-- @each_model TEMPLATE" stands for one line per model of
-- CP_MODEL_MAP (src/common/cp_row.h), in its order: TEMPLATE with % the
-- model's name ("pred_%_ns REAL," gives "pred_lmo_ns REAL,", ...).
-- db/local.mk expands it when it embeds this file.

-- Facts about the run, one row per key, values as text.  The writer sets
-- schema_version and kind ('rank'); the runtime (src/lib/cp_rt.c,
-- src/lib/cp_flush.c) adds rank and size (world), pid, start_unix_ns (wall
-- clock at MPI_Init, ns since the epoch), host, mpi_library, clock ('tsc'
-- or 'monotonic'), clock_offset_ns, epoch_ns and init_ns (ns, job
-- clock), max_rows and sample (COMMPROF_MAX_ROWS, COMMPROF_SAMPLE),
-- sample_by ('identity': messages and collectives sampled by identity,
-- src/common/cp_sample.h; absent in files of older libraries, which kept
-- one row in N),
-- app_time_ns (MPI_Init to MPI_Finalize, ns) and finished (1 after a
-- clean MPI_Finalize, 0 after a commprof warning).  At every flush:
-- rows_dropped (rows that found the ring full; their calls are still in
-- aggs), rows_not_kept (rows left out by max_rows or sample),
-- rows_lost_disk (rows kept but not written: the disk was full),
-- rows_capped (of rows_not_kept, those the sampling kept but max_rows
-- refused: the rows kept are a prefix of what the sampling kept), all
-- four in rows, not calls (a Sendrecv makes two), and threads (threads
-- of the rank that made MPI calls, each counted once: aggs time is
-- summed over them, so its share is of app_time_ns x threads).  The
-- reader uses rank, app_time_ns, threads, the rows_* counts, and host
-- and pid (a dead rank's reserve).
CREATE TABLE meta (
	key	TEXT PRIMARY KEY NOT NULL,
	value	TEXT
);

-- The MPI functions: call id -> name and kind.  kind is 'blocking',
-- 'nonblocking' or 'persistent' (rows span post to completion: their
-- time overlaps the application and the completion call, so it is not
-- MPI time), 'completion' (Wait/Test forms: their own time), 'probe',
-- or 'other'.
CREATE TABLE ops (
	id	INTEGER PRIMARY KEY,	-- call id, as calls.op and aggs.op
	name	TEXT NOT NULL,		-- MPI function name, e.g. 'MPI_Isend'
	kind	TEXT NOT NULL,		-- see above
	class	TEXT NOT NULL DEFAULT 'other'	-- 'p2p' (a row is one
					-- message half), 'coll', 'probe',
					-- 'completion', 'rma' (one-sided),
					-- 'io' (files) or 'other'
);

-- One row per recorded call (limited by COMMPROF_MAX_ROWS, sampled by
-- COMMPROF_SAMPLE); aggs holds every call.
CREATE TABLE calls (
	seq	INTEGER NOT NULL,	-- per-rank order of recording, from 0
	op	INTEGER NOT NULL,	-- ops.id
	thread	INTEGER NOT NULL,	-- per-rank thread index, main thread 0
	peer	INTEGER,		-- world rank; -2 MPI_PROC_NULL, -3
					-- MPI_ANY_SOURCE unresolved; NULL none
	root	INTEGER,		-- world rank of the root; NULL none
	tag	INTEGER,		-- message tag; NULL none
	comm_size INTEGER,		-- communicator size (remote group if
					-- inter); NULL unknown
	comm	INTEGER NOT NULL,	-- job-wide communicator id
	layout	INTEGER,		-- layouts.idx of the type; NULL none
	flags	INTEGER NOT NULL,	-- CP_F_* bits of src/common/cp_row.h
	bytes	INTEGER NOT NULL,	-- bytes transferred (count * type size)
	count	INTEGER NOT NULL,	-- elements
	site	INTEGER NOT NULL,	-- return address of the call in the
					-- application; modules resolves it
	t_start_ns INTEGER NOT NULL,	-- ns since the job's first MPI_Init
	t_measured_ns INTEGER NOT NULL,	-- ns: call duration, or post to
					-- completion for requests
	t_incall_ns INTEGER,		-- ns inside the completing call;
					-- NULL none
	-- Online predictions (COMMPROF_PARAMS), ns; NULL: the model does
	-- not cover this call, or no parameters (src/lib/cp_predict.h).
	-- @each_model pred_%_ns REAL,
	pred_lmw_ns REAL,		-- log3P's l_mw term of pred_log3p_ns
	pred_flags INTEGER NOT NULL DEFAULT 0,	-- CP_PF_* of src/common/cp_row.h
	alg	INTEGER			-- collective: the algorithm of Open
					-- MPI's coll/tuned the library
					-- decided for it and priced (the
					-- numbers of analysis/cp_coll.h);
					-- NULL not a collective, or not known
);

-- Datatype layouts of the rank, by index.
CREATE TABLE layouts (
	idx	INTEGER PRIMARY KEY,	-- layout index, as calls.layout
	contiguous INTEGER NOT NULL,	-- 1 contiguous, 0 strided or irregular
	irregular INTEGER NOT NULL,	-- 1: no single block size and stride
	size_bytes INTEGER NOT NULL,	-- MPI_Type_size
	extent_bytes INTEGER NOT NULL,	-- MPI_Type_get_extent
	block_bytes INTEGER,		-- bytes per contiguous block;
					-- NULL unknown
	stride_bytes INTEGER,		-- bytes between block starts; NULL n/a
	nblocks	INTEGER NOT NULL,	-- blocks per element of the type
	descr	TEXT			-- e.g. 'vector(16,1,128) of MPI_DOUBLE'
);

-- Aggregates per (site, op, peer, size class, layout): complete even when
-- call rows are limited, sampled or dropped.  Replaced at every flush.
CREATE TABLE aggs (
	site	INTEGER NOT NULL,	-- return address, as calls.site
	op	INTEGER NOT NULL,	-- ops.id
	peer	INTEGER,		-- as calls.peer
	size_class INTEGER NOT NULL,	-- cp_row_size_class(bytes) of
					-- src/common/cp_row.h
	layout	INTEGER,		-- as calls.layout
	count	INTEGER NOT NULL,	-- calls
	bytes	INTEGER NOT NULL,	-- bytes summed over the calls
	time_ns	INTEGER NOT NULL,	-- t_measured_ns summed, ns
	min_ns	INTEGER NOT NULL,	-- shortest t_measured_ns, ns
	max_ns	INTEGER NOT NULL,	-- longest t_measured_ns, ns
	rows	INTEGER NOT NULL	-- how many of them have a calls row
);

-- Code modules mapped in the rank, to resolve callsites afterwards.
CREATE TABLE modules (
	start_addr INTEGER NOT NULL,	-- first address of its mapped segments
	end_addr INTEGER NOT NULL,	-- one past the last mapped address
	base_addr INTEGER NOT NULL,	-- load bias (dlpi_addr)
	path	TEXT NOT NULL,		-- file of the module
	build_id TEXT,			-- GNU build id in hex; NULL unknown
	PRIMARY KEY (start_addr, path)
);

-- @merged
-- commprof.db: facts about the merge: schema_version, kind ('merged'),
-- ranks (rank files merged), rank_files (rank-*.db files found),
-- source_dir (the directory of the rank files), rows_merged (0 while
-- calls is empty: the small tables and the reduction are made at once,
-- the call rows are copied in when a command needs them, e.g. export;
-- absent in files that have their rows), matched (1 once the matching
-- ran), match_p2p_rows and match_coll_rows (rows that got a
-- t_transfer_ns), match_p2p_left and match_coll_left (rows of those
-- classes left unmatched), match_note (why rows were left, one line, or
-- absent) and warning.0, warning.1, ...: one line per rank file that was
-- damaged or skipped, repeated on stderr each time the merge is used.
CREATE TABLE meta (
	key	TEXT PRIMARY KEY NOT NULL,
	value	TEXT
);

-- The meta rows of every rank file, and rows_in_file: its call rows.
CREATE TABLE rank_meta (
	rank	INTEGER NOT NULL,	-- world rank of the file
	key	TEXT NOT NULL,
	value	TEXT,
	PRIMARY KEY (rank, key)
);

-- The rank files merged, by world rank.
CREATE TABLE rank_files (
	rank	INTEGER PRIMARY KEY,	-- world rank of the file
	name	TEXT NOT NULL		-- its name in source_dir
);

-- Union of the ops tables (ids are the same in every rank).
CREATE TABLE ops (
	id	INTEGER PRIMARY KEY,
	name	TEXT NOT NULL,
	kind	TEXT NOT NULL,
	class	TEXT NOT NULL DEFAULT 'other'
);

-- calls of every rank; columns as in the rank file.
CREATE TABLE calls (
	rank	INTEGER NOT NULL,	-- world rank that made the call
	seq	INTEGER NOT NULL,
	op	INTEGER NOT NULL,
	thread	INTEGER NOT NULL,
	peer	INTEGER,
	root	INTEGER,
	tag	INTEGER,
	comm_size INTEGER,
	comm	INTEGER NOT NULL,
	layout	INTEGER,
	flags	INTEGER NOT NULL,
	bytes	INTEGER NOT NULL,
	count	INTEGER NOT NULL,
	site	INTEGER NOT NULL,
	t_start_ns INTEGER NOT NULL,
	t_measured_ns INTEGER NOT NULL,
	t_incall_ns INTEGER,
	-- @each_model pred_%_ns REAL,
	pred_lmw_ns REAL,
	pred_flags INTEGER NOT NULL DEFAULT 0,
	alg	INTEGER,
	-- Filled after the merge by matching (src/cli/cli_match.c); NULL when
	-- the row was not matched.  Point to point: the message's transfer
	-- time, receive completion minus the later of send start and
	-- receive post; collective: last rank's exit minus last rank's
	-- entry of the operation instance.
	t_transfer_ns INTEGER,
	t_wait_ns INTEGER,		-- p2p: |send start - receive post|;
					-- collective: entry skew (last
					-- entry - first entry)
	late INTEGER,			-- p2p: 1 sender late (the receive
					-- waited), 2 receiver late; NULL
	mate_rank INTEGER,		-- p2p: rank of the matched row
	mate_seq INTEGER,		-- p2p: its seq
	coll_inst INTEGER		-- collective: instance number on comm
	-- max(t_transfer, pred) / min(t_transfer, pred) per model, after
	-- the column above: a comma first
	-- @each_model , mu_% REAL
);

CREATE TABLE layouts (
	rank	INTEGER NOT NULL,
	idx	INTEGER NOT NULL,
	contiguous INTEGER NOT NULL,
	irregular INTEGER NOT NULL,
	size_bytes INTEGER NOT NULL,
	extent_bytes INTEGER NOT NULL,
	block_bytes INTEGER,
	stride_bytes INTEGER,
	nblocks	INTEGER NOT NULL,
	descr	TEXT,
	PRIMARY KEY (rank, idx)
);

CREATE TABLE aggs (
	rank	INTEGER NOT NULL,
	site	INTEGER NOT NULL,
	op	INTEGER NOT NULL,
	peer	INTEGER,
	size_class INTEGER NOT NULL,
	layout	INTEGER,
	count	INTEGER NOT NULL,
	bytes	INTEGER NOT NULL,
	time_ns	INTEGER NOT NULL,
	min_ns	INTEGER NOT NULL,
	max_ns	INTEGER NOT NULL,
	rows	INTEGER NOT NULL
);

CREATE TABLE modules (
	id	INTEGER PRIMARY KEY,	-- row id, for joins
	rank	INTEGER NOT NULL,
	start_addr INTEGER NOT NULL,
	end_addr INTEGER NOT NULL,
	base_addr INTEGER NOT NULL,
	path	TEXT NOT NULL,
	build_id TEXT
);

-- @reduced
-- The reduction of the run: what the report prints of its message and
-- collective rows, without them.  Alone in commprof-reduced.db, meta
-- holds schema_version, kind ('reduced'), ranks (that took part),
-- epoch_ns (the job clock's origin, as in every rank file of the job),
-- reduce_ms (what the reduction took), reduced_by ('job' at MPI_Finalize,
-- or 'commprof-mpi') and reduce_ranks (the ranks of commprof-mpi); in
-- commprof.db, reduced is reduced_by (made elsewhere and copied, with
-- reduce_ms and reduce_ranks) or 'offline' (made by the CLI), and
-- reduce_note why the job did not reduce itself.
CREATE TABLE IF NOT EXISTS meta (
	key	TEXT PRIMARY KEY NOT NULL,
	value	TEXT
);

-- Counts of the matching (src/reduce/cp_red_sum.c names them):
-- p2p_rows, p2p_matched, p2p_counts, p2p_groups, p2p_negative, p2p_cut,
-- p2p_hole, coll_rows, coll_matched, coll_incomplete, coll_mixed,
-- coll_hole, coll_insts, p2p_skipped, calls_compared.
CREATE TABLE red_count (
	key	TEXT PRIMARY KEY NOT NULL,
	value	INTEGER NOT NULL
);

-- Message and collective rows per (pred_flags, models that predicted,
-- models compared): bit k of a mask is model k of CP_MODEL_MAP.
CREATE TABLE red_cov (
	pred_flags INTEGER NOT NULL,	-- CP_PF_* of the rows
	pred_mask INTEGER NOT NULL,
	mu_mask	INTEGER NOT NULL,
	rows	INTEGER NOT NULL
);

-- mu of a model over one group of compared rows, as a histogram
-- (analysis/cp_hist.h: count, sum, least and greatest value per bin);
-- group 4: per collective priced over Open MPI's algorithms, key
-- ops.id << 40 | size class << 16 | algorithm (16 bits, negative:
-- unknown); group 5: the times of the group 4 of the same key, model
-- 't_transfer' or 't_wait', values in ns plus 1.
CREATE TABLE red_acc (
	model	TEXT NOT NULL,		-- in CP_MODEL_MAP, or a time
	grp	INTEGER NOT NULL,	-- 0 all, 1 op, 2 size class,
					-- 3 link, 4 collective, 5 times
	key	INTEGER NOT NULL,	-- 0; ops.id; size class;
					-- a << 32 | b; see above
	n	INTEGER NOT NULL,	-- rows compared
	sum	REAL NOT NULL,		-- their mu summed
	bins	BLOB NOT NULL		-- the packed histogram
);

-- The rows each model predicted worst (largest mu), at most 100 each.
CREATE TABLE red_worst (
	model	TEXT NOT NULL,
	rank	INTEGER NOT NULL,
	seq	INTEGER NOT NULL,
	op	INTEGER NOT NULL,
	bytes	INTEGER NOT NULL,
	peer	INTEGER,		-- as calls.peer
	root	INTEGER,		-- as calls.root
	site	INTEGER NOT NULL,
	t_transfer_ns INTEGER NOT NULL,
	pred_ns	REAL NOT NULL,
	mu	REAL NOT NULL
);

-- The collective calls tau-Lop predicted worst (largest mu), at most
-- 100, each call (op, comm, t_transfer_ns, t_wait_ns) once by its
-- worst row.
CREATE TABLE red_coll_worst (
	model	TEXT NOT NULL,		-- 'taulop'
	rank	INTEGER NOT NULL,
	seq	INTEGER NOT NULL,
	op	INTEGER NOT NULL,
	bytes	INTEGER NOT NULL,
	peer	INTEGER,
	root	INTEGER,
	site	INTEGER NOT NULL,
	t_transfer_ns INTEGER NOT NULL,
	pred_ns	REAL NOT NULL,
	mu	REAL NOT NULL,
	t_wait_ns INTEGER,		-- entry skew, NULL none
	comm	INTEGER NOT NULL,	-- calls.comm
	alg	INTEGER NOT NULL	-- Open MPI's algorithm, < 0 unknown
);

-- Sends whose log3P l_mw term is the largest (CP_PF_L3_LMW_LARGEST),
-- receives left out, per (rank, site, op, bytes, layout).
CREATE TABLE red_strided (
	rank	INTEGER NOT NULL,
	site	INTEGER NOT NULL,
	op	INTEGER NOT NULL,
	bytes	INTEGER NOT NULL,
	layout	INTEGER NOT NULL,	-- layouts.idx of the rank
	calls	INTEGER NOT NULL,
	pred_log3p_ns REAL NOT NULL,	-- summed over n_log3p rows
	n_log3p	INTEGER NOT NULL,
	pred_lmw_ns REAL NOT NULL,	-- summed over n_lmw rows
	n_lmw	INTEGER NOT NULL,
	t_measured_ns INTEGER NOT NULL	-- summed
);

-- @indexes
-- export walks calls in (rank, seq) order; a callsite is looked up as the
-- module of its rank with the greatest start_addr <= site.
CREATE INDEX calls_rank_seq ON calls (rank, seq);
CREATE INDEX modules_rank_start ON modules (rank, start_addr);
