# Long paths: the cost of one open+read+close against the path's length,
# from 4 KB to 1 MB, for /proc/self/cgroup, the root field of
# /proc/self/mountinfo and /proc/self/cpuset; stock, patched and base, in
# the chains of 250-byte names (index 0) and of 15-byte names (index 1).
# usage: gnuplot -e "dat='long-path.dat'; out='long-path.svg'" long-path.gp
set terminal svg size 900,1500 dynamic font "sans,12"
set output out
set datafile missing "?"
set termoption noenhanced
set logscale xy
set xrange [3000:1500000]
set xtics ("4K" 4096, "16K" 16384, "64K" 65536, "256K" 262144, "1M" 1048576)
set grid
set key top left
set xlabel "path length (bytes; 4096 is PATH_MAX)"
set ylabel "ns per read"
set multiplot layout 3,1 title "long cgroup paths (guest ns, -icount shift=0): solid 250-byte names, dashed 15-byte names"
do for [k = 0:2] {
	kind = word("/proc/self/cgroup /proc/self/mountinfo /proc/self/cpuset", k + 1)
	set title kind
	c = 3 + 3 * k
	plot dat index 0 using 1:c       with linespoints lw 2 pt 7 lc rgb "#1f77b4" title "stock", \
	     dat index 0 using 1:(column(c + 1)) with linespoints lw 2 pt 5 lc rgb "#d62728" title "patched", \
	     dat index 0 using 1:(column(c + 2)) with linespoints lw 1 pt 1 lc rgb "#7f7f7f" title "base", \
	     dat index 1 using 1:c       with linespoints lw 2 pt 6 dt 2 lc rgb "#1f77b4" notitle, \
	     dat index 1 using 1:(column(c + 1)) with linespoints lw 2 pt 4 dt 2 lc rgb "#d62728" notitle, \
	     dat index 1 using 1:(column(c + 2)) with linespoints lw 1 pt 2 dt 2 lc rgb "#7f7f7f" notitle
}
unset multiplot
