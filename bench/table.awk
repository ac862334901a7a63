# SPDX-License-Identifier: BSD-2-Clause
# table.awk: the table `make bench` prints, from the all.kv file
# (key=value lines) bench/run.sh writes per fabric size.
#
#   awk -v smallest=SIZE -f bench/table.awk DIR/ft*/all.kv
#
# Figures per size, then the figures against issue 25's targets, each
# marked "met" or "NOT met".  Definitions (bench/README says more):
#   ports         CA ports + switch ports 1..N (what discovery reads)
#   MADs sent     discovery SMPs (libibnetdisc's count) + the MAD engine's
#                 sends (SMPs and GMPs, retries included)
#   per port      wall time / CA ports (the end ports both audits cover)
#   script        bench/diags-audit.sh, measured on the smallest size only;
#                 its per-port cost is carried to the larger sizes ("*")
#   RSS fit       least squares RSS = base + slope * ports over the sizes

function v(s, k) { return (s SUBSEP k) in kv ? kv[s, k] : "" }
function has(x) { return x != "" }
function mark(ok) { return ok ? "met" : "NOT met" }

{
	eq = index($0, "=")
	if (eq == 0)
		next
	key = substr($0, 1, eq - 1)
	val = substr($0, eq + 1)
	if (key == "size") {
		size = val
		order[++n] = size
	}
	kv[size, key] = val
}

END {
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (order[j] + 0 < order[i] + 0) {
				t = order[i]; order[i] = order[j]; order[j] = t
			}
	spp = ""
	if (has(v(smallest, "diags_wall")) && v(smallest, "diags_ports") > 0)
		spp = v(smallest, "diags_wall") / v(smallest, "diags_ports")

	print "Figures (ibsim + a real opensm on this machine; times are " \
	    "the simulator's)"
	hdr = "%6s %8s %6s | %8s %7s %8s %7s | %9s | %8s | %9s\n"
	printf hdr, "HCAs", "switches", "ports", "fabaudit", "RSS", "MADs",
	    "MADs/s", "ibnetdisc", "ceiling", "script"
	printf hdr, "", "", "", "wall s", "MiB", "sent", "", "-o 32 s",
	    "SMP/s", "s/port"
	for (i = 1; i <= n; i++) {
		s = order[i]
		wall = v(s, "scan_wall")
		tmo = v(s, "scan_timeout")
		mads = ""
		if (has(v(s, "scan_disc_smps")) && has(v(s, "scan_engine_sent")))
			mads = v(s, "scan_disc_smps") + v(s, "scan_engine_sent")
		rate[s] = has(mads) && wall > 0 ? mads / wall : ""
		rss[s] = v(s, "scan_rss_kb")
		printf hdr, v(s, "hcas"), v(s, "switches"), v(s, "ports"),
		    has(wall) ? sprintf("%.2f", wall) : has(tmo) ? ">" tmo : "-",
		    has(rss[s]) ? sprintf("%s%.1f", has(wall) ? "" : ">",
		    rss[s] / 1024) : "-",
		    has(mads) ? mads : "-",
		    has(rate[s]) ? sprintf("%.0f", rate[s]) : "-",
		    has(v(s, "ibnd_wall")) ? sprintf("%.3f", v(s, "ibnd_wall")) : \
		    "-",
		    has(v(s, "ceiling_rate")) ? v(s, "ceiling_rate") : "-",
		    !has(spp) ? "-" : sprintf("%.4f%s", spp,
		    s == smallest ? " " : "*")
	}
	print "  (ports = CA ports + switch ports 1..N; MADs = discovery " \
	    "SMPs + engine SMPs/GMPs;"
	print "   * = the script's cost per port measured on " smallest \
	    " HCAs, extrapolated, not measured at this size)"
	print ""
	print "Targets (issue 25), each against ibnetdiscover -o 32 in the " \
	    "same session"
	hdr2 = "%6s | %-14s | %-14s | %-22s | %-17s | %-15s | %6s | %s\n"
	printf hdr2, "HCAs", "scan/ibnd", "no-probes/ibnd", "discovery SMP/s",
	    "audit MAD/s", "local work", "RSS", "check"
	printf hdr2, "", "(<= 1.5)", "(<= 1.25)", "(>= ibnd's)",
	    "/ ceiling (>=0.8)", "(s)", "KiB/pt", "offline (s)"
	for (i = 1; i <= n; i++) {
		s = order[i]
		h = v(s, "hcas") + 0
		ib = v(s, "ibnd_wall")
		wall = v(s, "scan_wall")
		# A scan that timed out gives bounds: wall > the timeout.
		gt = ""
		if (!has(wall) && has(v(s, "scan_timeout"))) {
			wall = v(s, "scan_timeout"); gt = ">"
		}
		r1 = has(wall) && ib > 0 ? sprintf("%s%.2f %s", gt, wall / ib,
		    mark(gt == "" && wall / ib <= 1.5)) : "-"
		w = v(s, "narrow_wall")
		r2 = has(w) && ib > 0 ? sprintf("%.2f %s", w / ib,
		    mark(w / ib <= 1.25)) : "-"
		# Discovery's SMPs over the time spent in libibnetdisc
		# (ib.engine's discovery.walk_ms; discovery.ms before it had
		# one) against ibnetdiscover's SMPs over its whole run.
		wk = has(v(s, "scan_walk_ms")) ? v(s, "scan_walk_ms") : \
		    v(s, "scan_disc_ms")
		dr = wk > 0 ? v(s, "scan_disc_smps") / (wk / 1000) : ""
		ir = ib > 0 ? v(s, "ibnd_smps") / ib : ""
		r3 = has(dr) && ir > 0 ? sprintf("%.0f/%.0f %s", dr, ir,
		    mark(dr >= ir)) : "-"
		# The LID-routed phases: every engine send over the audit's
		# clock (ib.engine's audit_ms), against the ceiling.
		ar = v(s, "scan_audit_ms") > 0 ? \
		    v(s, "scan_engine_sent") / (v(s, "scan_audit_ms") / 1000) : ""
		c = v(s, "ceiling_rate")
		r4 = has(ar) && c > 0 ? sprintf("%.2f %s", ar / c,
		    mark(ar / c >= 0.8)) : "-"
		# Local work: the wall time outside libibnetdisc's walk and the
		# audit's MADs (start-up, building the topology, the child's
		# hand-off, evaluation, every writer).  Its target: <= 0.1 s
		# at 648 HCAs and fewer, <= 0.5 s at 10,044 and more, none set
		# in between.
		lw = has(wall) && gt == "" && has(wk) ? \
		    wall - (wk + v(s, "scan_audit_ms")) / 1000 : ""
		lt = h <= 648 ? 0.1 : h >= 10044 ? 0.5 : ""
		r5 = !has(lw) ? "-" : has(lt) ? sprintf("%.2f %s", lw,
		    mark(lw <= lt)) : sprintf("%.2f", lw)
		r6 = has(rss[s]) ? sprintf("%s%.2f", gt,
		    rss[s] / v(s, "ports")) : "-"
		rc = v(s, "recheck_wall")
		r7 = !has(rc) ? "-" : h >= 10044 ? sprintf("%.2f %s", rc,
		    mark(rc <= 1)) : sprintf("%.2f", rc)
		if (v(s, "recheck_same") == "no")
			r7 = r7 " (results DIFFER)"
		printf hdr2, v(s, "hcas"), r1, r2, r3, r4, r5, r6, r7
	}
	print "  (no-probes: --key-probes none; discovery: its SMPs over " \
	    "the time inside libibnetdisc; local work: wall minus that and " \
	    "the audit's clock;"
	print "   check offline: fabaudit check on the first scan's " \
	    "snapshot.json, its target set at 10,044 HCAs)"
	print ""

	# RSS = base + slope * ports, least squares over the measured sizes.
	m = 0; sx = 0; sy = 0; sxx = 0; sxy = 0
	for (i = 1; i <= n; i++) {
		s = order[i]
		if (!has(rss[s]) || !has(v(s, "scan_wall")))
			continue
		x = v(s, "ports"); y = rss[s]
		m++; sx += x; sy += y; sxx += x * x; sxy += x * y
		fx[m] = x; fy[m] = y
	}
	if (m >= 2 && m * sxx - sx * sx > 0) {
		slope = (m * sxy - sx * sy) / (m * sxx - sx * sx)
		base = (sy - slope * sx) / m
		dev = 0
		for (i = 1; i <= m; i++) {
			d = fy[i] - (base + slope * fx[i])
			d = d < 0 ? -d : d
			if (d / fy[i] > dev)
				dev = d / fy[i]
		}
		lin = m == 2 ? "2 points: linearity not tested" : \
		    sprintf("largest deviation from the line %.0f%%", dev * 100)
		printf "RSS fit over %d sizes: %.2f KiB per port + %.1f MiB " \
		    "base (%s): %s (target <= 4 KiB/port)\n", m, slope,
		    base / 1024, lin, mark(slope <= 4)
	} else
		print "RSS fit: not measured (needs at least two sizes)"

	mo = v(smallest, "maxout1")
	if (mo == "OK")
		printf "--max-outstanding 1 on %s HCAs: OK (results equal the " \
		    "default run's; %.2f s)\n", smallest,
		    v(smallest, "maxout1_wall")
	else if (mo == "DIFF")
		printf "--max-outstanding 1 on %s HCAs: DIFF (results differ " \
		    "from the default run's)\n", smallest
	else if (mo == "n/a")
		printf "--max-outstanding 1 on %s HCAs: not run: %s\n",
		    smallest, v(smallest, "maxout1_why")
	else
		printf "--max-outstanding 1 on %s HCAs: not measured (%s)\n",
		    smallest, v(smallest, "maxout1_error")

	for (i = 1; i <= n; i++) {
		s = order[i]
		printf "%s HCAs: %s; session %.0f s (fabric up in %.0f s); " \
		    "ibnetdiscover -o 32 runs %s s, %s SMPs (predicted %s)\n",
		    s, v(s, "shape"), v(s, "session_wall"), v(s, "bringup_wall"),
		    v(s, "ibnd_walls"), v(s, "ibnd_smps"), v(s, "pred_smps")
		# Context for the MADs/s target: discovery's directed-route
		# SMPs against the ceiling's LID-routed ones.
		if (v(s, "ibnd_wall") > 0 && v(s, "ceiling_rate") > 0)
			printf "    ibnetdiscover itself: %.0f SMP/s, " \
			    "%.2f of the ceiling\n", v(s, "ibnd_smps") / \
			    v(s, "ibnd_wall"), v(s, "ibnd_smps") / \
			    v(s, "ibnd_wall") / v(s, "ceiling_rate")
		if (has(v(s, "scan_engine_sent")))
			printf "    fabaudit: discovery %s SMPs + engine %s " \
			    "MADs (%s answered, %s sends lost), %s results\n",
			    v(s, "scan_disc_smps"), v(s, "scan_engine_sent"),
			    v(s, "scan_engine_answered"),
			    v(s, "scan_engine_lost"), v(s, "scan_results")
		# Context: the phases that face the fabric, by their own
		# clocks, against discovery alone (the rest is local work).
		if (has(v(s, "scan_disc_ms")) && has(v(s, "scan_audit_ms")) &&
		    v(s, "ibnd_wall") > 0)
			printf "    fabaudit runs %s s; the median's discovery " \
			    "%.2f s + audit %.2f s (of its %.2f s) = %.2f x " \
			    "ibnetdiscover\n", v(s, "scan_walls"),
			    v(s, "scan_disc_ms") / 1000,
			    v(s, "scan_audit_ms") / 1000, v(s, "scan_wall"),
			    (v(s, "scan_disc_ms") + v(s, "scan_audit_ms")) / \
			    1000 / v(s, "ibnd_wall")
		if (has(v(s, "recheck_wall")))
			printf "    fabaudit check offline: %.2f s, %.1f MiB " \
			    "peak, on a %s MB snapshot.json; results %s the " \
			    "scan's\n", v(s, "recheck_wall"),
			    v(s, "recheck_rss_kb") / 1024, v(s, "recheck_mb"),
			    v(s, "recheck_same") == "yes" ? "equal" : "DIFFER from"
		if (has(v(s, "narrow_walls")))
			printf "    --key-probes none: runs %s s, the " \
			    "median's audit %.2f s, %s results\n",
			    v(s, "narrow_walls"), v(s, "narrow_audit_ms") / 1000,
			    v(s, "narrow_results")
		for (k in kv) {
			split(k, kk, SUBSEP)
			if (kk[1] == s && kk[2] ~ /_error$/)
				printf "    NOT MEASURED: %s: %s\n", kk[2], kv[k]
		}
	}
}
