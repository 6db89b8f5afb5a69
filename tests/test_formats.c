// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests of the shared file formats (MangoHud CSV, JSON, /proc/stat),
 * option parsing, and the system readers and process helpers of lib/. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json.h"
#include "mangohud.h"
#include "spawn.h"
#include "sysinfo.h"
#include "util.h"

#define NEAR(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

static FILE *mem(const char *text)
{
	return fmemopen((void *)text, strlen(text), "r");
}

/* Current MangoHud layout with log versioning, frametime in ms. */
static const char current_log[] =
	"v1\n"
	"0.8.0\n"
	"---------------------SYSTEM INFO---------------------\n"
	"os,cpu,gpu,ram,kernel,driver,cpuscheduler\n"
	"Debian GNU/Linux 12,AMD Ryzen 7 5800X,RX 6800,32 GB,6.12.0,Mesa 24,"
	"schedutil\n"
	"--------------------FRAME METRICS--------------------\n"
	"fps,frametime,cpu_load,cpu_power,gpu_load,cpu_temp,gpu_temp,"
	"gpu_core_clock,gpu_mem_clock,gpu_vram_used,gpu_power,ram_used,"
	"swap_used,process_rss,cpu_mhz,elapsed\n"
	"60.0,16.667,10,0,0,0,0,0,0,0,0,0,0,0,0,16667000\n"
	"50.0,20.0,10,0,0,0,0,0,0,0,0,0,0,0,0,36667000\n"
	"60.0,16.667,10,0,0,0,0,0,0,0,0,0,0,0,0,53334000\n"
	"30.0,33.333,10,0,0,0,0,0,0,0,0,0,0,0,0,86667000\n";

static void mangohud_current_layout(void **state)
{
	struct gs_mh_log log;
	char err[256];
	FILE *f = mem(current_log);

	(void)state;
	assert_int_equal(gs_mh_read(f, "cur.csv", &log, err, sizeof(err)), 0);
	fclose(f);
	assert_int_equal(log.n, 4);
	assert_int_equal(log.columns, 16);
	assert_int_equal(log.header_line, 7);
	assert_int_equal(log.unit, GS_MH_MS);
	assert_true(log.per_frame);
	assert_true(log.has_sysinfo);
	assert_string_equal(log.sys.cpu, "AMD Ryzen 7 5800X");
	assert_string_equal(log.sys.cpuscheduler, "schedutil");
	NEAR(log.frametime_ms[3], 33.333, 1e-9);
	assert_int_equal(log.elapsed_ns[1], 36667000);
	gs_mh_free(&log);
}

/* Debian 12's MangoHud 0.6.8: 12 columns, frametime in microseconds. */
static void mangohud_068_layout_in_us(void **state)
{
	static const char text[] =
		"os,cpu,gpu,ram,kernel,driver,cpuscheduler\n"
		"Debian,Intel,Intel UHD,16GB,6.1.0,Mesa,powersave\n"
		"fps,frametime,cpu_load,gpu_load,cpu_temp,gpu_temp,"
		"gpu_core_clock,gpu_mem_clock,gpu_vram_used,gpu_power,ram_used,"
		"elapsed\n"
		"144.0,6944,5,0,0,0,0,0,0,0,0,6944000\n"
		"100.0,10000,5,0,0,0,0,0,0,0,0,16944000\n"
		"144.0,6944,5,0,0,0,0,0,0,0,0,23888000\n";
	struct gs_mh_log log;
	char err[256];
	FILE *f = mem(text);

	(void)state;
	assert_int_equal(gs_mh_read(f, "old.csv", &log, err, sizeof(err)), 0);
	fclose(f);
	assert_int_equal(log.columns, 12);
	assert_int_equal(log.unit, GS_MH_US);
	NEAR(log.frametime_ms[1], 10.0, 1e-12);
	assert_true(log.per_frame);
	gs_mh_free(&log);
}

/* log_interval=100 ms: rows are samples, frame times do not add up. */
static void mangohud_sampled_rows_detected(void **state)
{
	static const char text[] =
		"fps,frametime,elapsed\n"
		"60,16.6,100000000\n"
		"61,16.4,200000000\n"
		"59,16.9,300000000\n"
		"60,16.6,400000000\n";
	struct gs_mh_log log;
	char err[256];
	FILE *f = mem(text);

	(void)state;
	assert_int_equal(gs_mh_read(f, "s.csv", &log, err, sizeof(err)), 0);
	fclose(f);
	assert_false(log.per_frame);
	assert_false(log.has_sysinfo);
	gs_mh_free(&log);
}

/* Rows that are no frame are left out by the one reader every tool uses:
 * a 0 ms row does not count as a frame, and one damaged row over a minute
 * does not make a per-frame log look sampled. */
static void mangohud_rows_that_are_no_frame(void **state)
{
	static const char text[] =
		"fps,frametime,elapsed\n"
		"60,16.6,16600000\n"
		"0,0,16600000\n"
		"60,16.7,33300000\n"
		"0,99999,33300000\n"
		"60,16.6,49900000\n"
		"60,16.7,66600000\n";
	struct gs_mh_log log;
	char err[256];
	FILE *f = mem(text);

	(void)state;
	assert_int_equal(gs_mh_read(f, "z.csv", &log, err, sizeof(err)), 0);
	fclose(f);
	assert_int_equal(log.n, 4);
	assert_true(log.per_frame);
	assert_int_equal(log.unusable, 2);
	assert_int_equal(log.first_unusable_line, 3);
	assert_int_equal(log.line[0], 2);
	assert_int_equal(log.line[3], 7);
	for (size_t i = 0; i < log.n; i++)
		assert_true(log.frametime_ms[i] > 16 && log.frametime_ms[i] < 17);
	gs_mh_free(&log);
	f = mem("fps,frametime,elapsed\n0,0,1\n0,0,2\n");
	assert_int_equal(gs_mh_read(f, "z.csv", &log, err, sizeof(err)), -1);
	fclose(f);
	assert_string_equal(err, "z.csv: no usable frame (2 rows skipped; first: "
			    "z.csv:2: frame time 0 ms: a row that is no frame)");
	/* numbers are decimal: a hex frame time is no number */
	f = mem("fps,frametime,elapsed\n60,0x10,1\n");
	assert_int_equal(gs_mh_read(f, "z.csv", &log, err, sizeof(err)), -1);
	fclose(f);
	assert_non_null(strstr(err, "z.csv:2: column 'frametime'"));
}

static void expect_error(const char *text, const char *want)
{
	struct gs_mh_log log;
	char err[256];
	FILE *f = mem(text);

	assert_int_equal(gs_mh_read(f, "bad.csv", &log, err, sizeof(err)), -1);
	fclose(f);
	if (!strstr(err, want)) {
		fprintf(stderr, "error was: %s\nwanted: %s\n", err, want);
		fail();
	}
	assert_null(log.frametime_ms);
}

static void mangohud_errors_name_file_and_line(void **state)
{
	(void)state;
	expect_error("fps,cpu_load,elapsed\n60,1,2\n",
		     "bad.csv:1: frame header has no 'frametime' column");
	expect_error("fps,frametime,elapsed\n60,16.6,1\n60,16.6\n",
		     "bad.csv:3: expected 3 comma-separated fields");
	expect_error("fps,frametime,elapsed\n60,abc,1\n",
		     "bad.csv:2: column 'frametime': expected a non-negative "
		     "number, got 'abc'");
	expect_error("os,cpu\nx,y\n", "bad.csv:2: no MangoHud frame header");
	expect_error("fps,frametime,elapsed\n", "bad.csv:1: frame header but "
						"no frame rows");
	expect_error("", "bad.csv: no MangoHud frame header");
}

static void mangohud_writer_round_trip(void **state)
{
	struct gs_mh_sysinfo sys = { .os = "Debian, 12", .cpu = "Test CPU" };
	struct gs_mh_log log;
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	uint64_t el = 0;

	(void)state;
	gs_mh_write_header(f, &sys);
	for (int i = 0; i < 100; i++) {
		double ft = i == 50 ? 40.0 : 16.0;

		el += (uint64_t)(ft * 1e6);
		gs_mh_write_frame(f, ft, 25.0, el);
	}
	fclose(f);
	/* a comma inside a field must not shift the columns */
	assert_non_null(strstr(buf, "Debian  12,Test CPU"));
	f = mem(buf);
	assert_int_equal(gs_mh_read(f, "rt.csv", &log, err, sizeof(err)), 0);
	fclose(f);
	assert_int_equal(log.n, 100);
	assert_int_equal(log.columns, 16);
	assert_int_equal(log.unit, GS_MH_MS);
	assert_true(log.per_frame);
	NEAR(log.frametime_ms[50], 40.0, 1e-6);
	assert_int_equal(log.elapsed_ns[99], el);
	gs_mh_free(&log);
	free(buf);
}

static void json_round_trip(void **state)
{
	char *buf = NULL, err[128];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct gs_jw w;
	struct gs_jv *v;

	(void)state;
	gs_jw_init(&w, f, true);
	gs_jw_obj(&w, NULL);
	gs_jw_uint(&w, "frames", 12345);
	gs_jw_num(&w, "avg_fps", 59.94);
	gs_jw_num(&w, "nan", NAN);
	gs_jw_str(&w, "comm", "a \"quoted\"\tname</script>");
	gs_jw_obj(&w, "frametime_ms");
	gs_jw_num(&w, "p99", 21.5);
	gs_jw_obj_end(&w);
	gs_jw_arr(&w, "list");
	gs_jw_int(&w, NULL, -3);
	gs_jw_bool(&w, NULL, true);
	gs_jw_null(&w, NULL);
	gs_jw_arr_end(&w);
	gs_jw_arr(&w, "empty");
	gs_jw_arr_end(&w);
	gs_jw_obj_end(&w);
	gs_jw_done(&w);
	fclose(f);
	assert_null(strstr(buf, "</script>"));

	v = gs_json_parse(buf, len, err, sizeof(err));
	assert_non_null(v);
	NEAR(gs_json_num_at(v, "frames", -1), 12345, 0);
	NEAR(gs_json_num_at(v, "avg_fps", -1), 59.94, 1e-12);
	NEAR(gs_json_num_at(v, "frametime_ms.p99", -1), 21.5, 0);
	NEAR(gs_json_num_at(v, "nan", -7), -7, 0); /* written as null */
	assert_string_equal(gs_json_str_at(v, "comm"),
			    "a \"quoted\"\tname</script>");
	assert_int_equal(gs_json_get(v, "list")->len, 3);
	assert_int_equal(gs_json_get(v, "list")->items[2]->type, GS_JNULL);
	assert_int_equal(gs_json_get(v, "empty")->len, 0);
	assert_null(gs_json_path(v, "frametime_ms.p42"));
	/* in an array a part is an index */
	assert_int_equal(gs_json_path(v, "list.0")->type, GS_JNUM);
	assert_int_equal(gs_json_path(v, "list.2")->type, GS_JNULL);
	assert_null(gs_json_path(v, "list.3"));
	assert_null(gs_json_path(v, "list.-1"));
	assert_null(gs_json_path(v, "list.x"));
	assert_null(gs_json_path(v, "empty.0"));
	gs_json_free(v);
	free(buf);
}

static void json_errors_have_positions(void **state)
{
	char err[128];
	const char *bad = "{\n  \"a\": 1,\n  \"b\" 2\n}";

	(void)state;
	assert_null(gs_json_parse(bad, strlen(bad), err, sizeof(err)));
	assert_non_null(strstr(err, "line 3, column 7"));
	assert_non_null(strstr(err, "expected ':'"));
	assert_null(gs_json_parse("[1,2", 4, err, sizeof(err)));
	assert_null(gs_json_parse("{} x", 4, err, sizeof(err)));
	assert_non_null(strstr(err, "trailing"));
	{
		const char *bad_tail = "\"\\u00e9\\ud83d\\ude00\"x";
		const char *ok = "\"\\u00e9\\ud83d\\ude00\"";
		struct gs_jv *v;

		assert_null(gs_json_parse(bad_tail, strlen(bad_tail), err,
					  sizeof(err)));
		v = gs_json_parse(ok, strlen(ok), err, sizeof(err));
		assert_non_null(v);
		assert_string_equal(v->str, "\xc3\xa9\xf0\x9f\x98\x80");
		gs_json_free(v);
	}
}

/* /proc/stat: the aggregate line, per-CPU lines with a gap (an offline
 * CPU), a short line skipped, the "intr" line never parsed. */
static void proc_stat_cputimes(void **state)
{
	static const char text[] =
		"cpu  100 0 50 1000 10 5 5 30 0 0\n"
		"cpu0 60 0 20 500 5 2 3 10 0 0\n"
		"cpu1 40 0 30 500 5 3 2 20 0 0\n"
		"cpu3 1 2 3\n"
		"cpu4 1 1 1 1 1 1 1 7 0 0\n"
		"intr 12345 1 2 3\n"
		"cpu9 1 1 1 1 1 1 1 1 0 0\n";
	struct gs_cputimes all, per[4];
	FILE *f;

	(void)state;
	f = fmemopen((void *)text, sizeof(text) - 1, "r");
	assert_non_null(f);
	/* cpu4 is seen (5 CPUs) but does not fit in 4 */
	assert_int_equal(gs_cputimes_fread(f, &all, per, 4), 5);
	fclose(f);
	assert_true(all.busy == 190 && all.total == 1200 && all.steal == 30);
	assert_true(per[0].busy == 95 && per[0].total == 600 && per[0].steal == 10);
	assert_true(per[1].steal == 20);
	assert_true(per[2].total == 0 && per[3].total == 0);

	/* without the aggregate line */
	f = fmemopen((void *)(text + 33), sizeof(text) - 34, "r");
	assert_non_null(f);
	assert_int_equal(gs_cputimes_fread(f, &all, per, 4), -1);
	fclose(f);
	assert_int_equal(gs_cputimes_read("/nonexistent/stat", &all, NULL, 0), -1);
}

static void option_parsing(void **state)
{
	uint64_t u, ns;
	double d;
	int64_t i;

	(void)state;
	assert_int_equal(gs_parse_u64("42", 0, 100, &u), 0);
	assert_int_equal(u, 42);
	assert_int_equal(gs_parse_u64("-1", 0, 100, &u), -1);
	assert_int_equal(gs_parse_u64("101", 0, 100, &u), -1);
	assert_int_equal(gs_parse_u64("4x", 0, 100, &u), -1);
	assert_int_equal(gs_parse_u64("", 0, 100, &u), -1);
	/* a sign or whitespace before the digits: refused as " 60" was */
	assert_int_equal(gs_parse_u64("+60", 0, 100, &u), -1);
	assert_int_equal(gs_parse_u64("\t60", 0, 100, &u), -1);
	assert_int_equal(gs_parse_u64("\n60", 0, 100, &u), -1);
	assert_int_equal(gs_parse_i64("+5", -10, 10, &i), -1);
	assert_int_equal(gs_parse_i64("\t-5", -10, 10, &i), -1);
	assert_int_equal(gs_parse_i64("-5", 0, 10, &i), -1);
	assert_int_equal(gs_parse_double("+1.5", 0, 10, &d), -1);
	assert_int_equal(gs_parse_double("\t1.5", 0, 10, &d), -1);
	assert_int_equal(gs_parse_double("-1.5", -10, 10, &d), 0);
	assert_int_equal(gs_parse_duration_ns("+5s", NSEC_PER_SEC, &ns), -1);
	assert_int_equal(gs_parse_duration_ns("\t5s", NSEC_PER_SEC, &ns), -1);
	assert_int_equal(gs_parse_i64("-5", -10, 10, &i), 0);
	assert_int_equal(i, -5);
	assert_int_equal(gs_parse_double("1.5", 0, 2, &d), 0);
	assert_int_equal(gs_parse_double("nan", 0, 2, &d), -1);
	assert_int_equal(gs_parse_duration_ns("250ms", 1, &ns), 0);
	assert_int_equal(ns, 250000000);
	assert_int_equal(gs_parse_duration_ns("10", NSEC_PER_SEC, &ns), 0);
	assert_int_equal(ns, 10000000000ULL);
	assert_int_equal(gs_parse_duration_ns("1.5us", 1, &ns), 0);
	assert_int_equal(ns, 1500);
	assert_int_equal(gs_parse_duration_ns("2m", 1, &ns), 0);
	assert_int_equal(ns, 120000000000ULL);
	assert_int_equal(gs_parse_duration_ns("-3s", 1, &ns), -1);
	assert_int_equal(gs_parse_duration_ns("3 s", 1, &ns), -1);
	assert_int_equal(gs_parse_duration_ns("3parsecs", 1, &ns), -1);
	/* decimal only: a leading 0 is no octal, 0x no hex (README) */
	assert_int_equal(gs_parse_u64("010", 0, 100, &u), 0);
	assert_int_equal(u, 10);
	assert_int_equal(gs_parse_u64("09", 0, 100, &u), 0);
	assert_int_equal(u, 9);
	assert_int_equal(gs_parse_u64("0x10", 0, 100, &u), -1);
	assert_int_equal(gs_parse_i64("-010", -100, 100, &i), 0);
	assert_int_equal(i, -10);
	assert_int_equal(gs_parse_i64("-0x10", -100, 100, &i), -1);
	assert_int_equal(gs_parse_double("0x1p3", 0, 100, &d), -1);
	assert_int_equal(gs_parse_double("-0x1", -2, 2, &d), -1);
	assert_int_equal(gs_parse_double("inf", 0, 1e300, &d), -1);
	assert_int_equal(gs_parse_double(".5", 0, 1, &d), 0);
	assert_int_equal(gs_parse_duration_ns("0x10s", 1, &ns), -1);
	assert_int_equal(gs_parse_duration_ns("010s", 1, &ns), 0);
	assert_int_equal(ns, 10000000000ULL);
}

static void whole_file_reader(void **state)
{
	char path[] = "/tmp/gs-read-XXXXXX", err[256], *buf;
	size_t len;
	FILE *f;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	for (int i = 0; i < 3000; i++)	/* past the first 4 KiB buffer */
		fprintf(f, "line %d\n", i);
	fclose(f);
	assert_int_equal(gs_read_file(path, 0, &buf, &len, err, sizeof(err)), 0);
	assert_int_equal(len, strlen(buf));
	assert_int_equal(strncmp(buf, "line 0\nline 1\n", 14), 0);
	assert_non_null(strstr(buf, "line 2999\n"));
	free(buf);
	/* max: the first max bytes, NUL-terminated */
	assert_int_equal(gs_read_file(path, 9, &buf, &len, NULL, 0), 0);
	assert_int_equal(len, 9);
	assert_string_equal(buf, "line 0\nli");
	free(buf);
	/* procfs: size 0 in stat, content all the same */
	assert_int_equal(gs_read_file("/proc/self/stat", 0, &buf, &len, NULL, 0), 0);
	assert_true(len > 10);
	free(buf);
	unlink(path);
	assert_int_equal(gs_read_file(path, 0, &buf, &len, err, sizeof(err)), -1);
	assert_null(buf);
	assert_int_equal(len, 0);
	assert_true(strstr(err, path) == err);
	assert_non_null(strstr(err, ": No such file or directory"));
}

/* Mistakes that must not cost work (README, the rules for inputs):
 * inputs that are no regular file, outputs that cannot be written or are
 * the input. */
static void input_and_output_checks(void **state)
{
	char dir[] = "/tmp/gs-io-XXXXXX", p[128], q[128], why[256], *buf;
	size_t len;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/fifo", dir);
	assert_int_equal(mkfifo(p, 0600), 0);
	/* a FIFO without a writer: refused at once, not waited for */
	assert_int_equal(gs_read_file(p, 0, &buf, &len, why, sizeof(why)), -1);
	assert_non_null(strstr(why, ": not a regular file (a FIFO)"));
	assert_int_equal(gs_open_regular(dir, why, sizeof(why)), -1);
	assert_string_equal(why, "not a regular file (a directory)");
	assert_null(gs_fopen_regular("/dev/null", why, sizeof(why)));
	assert_string_equal(why, "not a regular file (a character device)");
	/* outputs */
	assert_int_equal(gs_check_output(dir, why, sizeof(why)), -1);
	assert_non_null(strstr(why, ": is a directory"));
	assert_int_equal(gs_check_output("/nonexistent/x", why, sizeof(why)), -1);
	assert_string_equal(why, "/nonexistent/x: cannot create it in /nonexistent: "
			    "No such file or directory");
	snprintf(q, sizeof(q), "%s/new", dir);
	assert_int_equal(gs_check_output(q, why, sizeof(why)), 0);
	/* the same file: by inode when it exists, else by name */
	snprintf(q, sizeof(q), "%s/link", dir);
	assert_int_equal(symlink("fifo", q), 0);
	assert_true(gs_same_file(p, q));
	assert_false(gs_same_file(p, "/dev/null"));
	assert_true(gs_same_file("/nonexistent/a", "/nonexistent/a"));
	assert_false(gs_same_file("/nonexistent/a", "/nonexistent/b"));
	unlink(q);
	unlink(p);
	rmdir(dir);
	/* NUL bytes, file-name suffixes */
	assert_int_equal(gs_nul_line("a\nb\nc", 5), 0);
	assert_int_equal(gs_nul_line("a\nb\0c", 5), 2);
	snprintf(q, sizeof(q), "game.config.conf");
	assert_true(gs_strip_suffix(q, ".conf"));
	assert_string_equal(q, "game.config");
	assert_false(gs_strip_suffix(q, ".conf"));
}

static void put_file(const char *dir, const char *name, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void sched_ext_reader(void **state)
{
	char dir[] = "/tmp/gs-scx-XXXXXX", p[256];
	struct gs_sysinfo si;
	struct gs_scx s;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/none", dir);
	gs_scx_read(p, &s);
	assert_false(s.present);
	assert_string_equal(s.state, "");
	assert_int_equal(s.enable_seq, -1);
	assert_int_equal(s.hotplug_seq, -1);

	put_file(dir, "state", "enabled\n");
	put_file(dir, "enable_seq", "5\n");
	put_file(dir, "hotplug_seq", "2\n");
	snprintf(p, sizeof(p), "%s/root", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	put_file(dir, "root/ops", "lavd_1.0\n");
	gs_scx_read(dir, &s);
	assert_true(s.present);
	assert_true(gs_scx_enabled(&s));
	assert_string_equal(s.ops, "lavd_1.0");
	assert_int_equal(s.enable_seq, 5);
	assert_int_equal(s.hotplug_seq, 2);
	/* the scheduler in charge is the loaded one */
	gs_sysinfo_read(&si, dir);
	assert_string_equal(si.scheduler, "lavd_1.0");
	assert_string_equal(si.scx.state, "enabled");

	put_file(dir, "state", "disabled\n");
	gs_sysinfo_read(&si, dir);
	assert_false(gs_scx_enabled(&si.scx));
	assert_true(!strcmp(si.scheduler, "eevdf") || !strcmp(si.scheduler, "cfs"));

	for (const char *const *n = (const char *const[]){ "root/ops", "root",
		"state", "enable_seq", "hotplug_seq", NULL }; *n; n++) {
		snprintf(p, sizeof(p), "%s/%s", dir, *n);
		assert_int_equal(remove(p), 0);
	}
	assert_int_equal(rmdir(dir), 0);
}

static void tracefs_probe(void **state)
{
	char dir[512], p[600];

	(void)state;
	errno = 0;
	if (gs_tracefs_dir(dir, sizeof(dir))) {
		assert_true(errno != 0);	/* no tracefs on this machine */
		return;
	}
	snprintf(p, sizeof(p), "%s/trace_marker", dir);
	assert_int_equal(access(p, F_OK), 0);
}

static void spawn_command(void **state)
{
	char log[] = "/tmp/gs-spawn-XXXXXX", err[256], *text;
	char *argv[] = { "sh", "-c", "echo \"$GS_TEST_VAR\"; echo oops >&2; exit 3",
			 NULL };
	char *missing[] = { "/nonexistent/prog", NULL };
	char *env[] = { "GS_TEST_VAR=hello", NULL };
	struct gs_spawn_opts o = { .log_path = log, .env_add = env,
				   .own_group = true, .die_with_parent = true,
				   .gated = true };
	size_t len;
	int gate, st;
	pid_t pid;

	(void)state;
	close(mkstemp(log));
	pid = gs_spawn(argv, &o, &gate, err, sizeof(err));
	assert_true(pid > 0);
	assert_int_equal(getpgid(pid), pid);
	assert_int_equal(write(gate, "x", 1), 1);
	close(gate);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 3);
	assert_int_equal(gs_read_file(log, 0, &text, &len, NULL, 0), 0);
	assert_string_equal(text, "hello\noops\n");
	free(text);

	/* a gate closed unwritten: nothing runs */
	pid = gs_spawn(argv, &o, &gate, err, sizeof(err));
	assert_true(pid > 0);
	close(gate);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 127);

	/* no such program: 127 and the reason in the log */
	o.gated = false;
	pid = gs_spawn(missing, &o, NULL, err, sizeof(err));
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 127);
	assert_int_equal(gs_read_file(log, 0, &text, &len, NULL, 0), 0);
	assert_non_null(strstr(text, "cannot run /nonexistent/prog: No such file"));
	free(text);
	unlink(log);

	o.log_path = "/nonexistent/dir/log";
	assert_int_equal(gs_spawn(argv, &o, NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "cannot open /nonexistent/dir/log: No such file "
				 "or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mangohud_current_layout),
		cmocka_unit_test(proc_stat_cputimes),
		cmocka_unit_test(mangohud_068_layout_in_us),
		cmocka_unit_test(mangohud_sampled_rows_detected),
		cmocka_unit_test(mangohud_rows_that_are_no_frame),
		cmocka_unit_test(mangohud_errors_name_file_and_line),
		cmocka_unit_test(mangohud_writer_round_trip),
		cmocka_unit_test(json_round_trip),
		cmocka_unit_test(json_errors_have_positions),
		cmocka_unit_test(option_parsing),
		cmocka_unit_test(whole_file_reader),
		cmocka_unit_test(input_and_output_checks),
		cmocka_unit_test(sched_ext_reader),
		cmocka_unit_test(tracefs_probe),
		cmocka_unit_test(spawn_command),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
