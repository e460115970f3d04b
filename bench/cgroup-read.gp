# /proc/self/cgroup read cost against the depth of the reader's cgroup,
# stock against patched (and base from the initial namespace).
# usage: gnuplot -e "dat='cgroup-read.dat'; out='cgroup-read.svg'" cgroup-read.gp
set terminal svg size 900,560 dynamic font "sans,12"
set output out
set datafile missing "?"
set title "/proc/self/cgroup: open+read+close (guest ns, -icount shift=0)"
set xlabel "depth of the cgroup (levels below the root)"
set ylabel "ns per read"
set yrange [5000:*]
set logscale x 2
set logscale y
set key top left
set grid
plot dat using 1:2  with linespoints lw 2 pt 7 lc rgb "#1f77b4" title "stock, initial ns", \
     dat using 1:3  with linespoints lw 2 pt 5 lc rgb "#d62728" title "patched, initial ns", \
     dat using 1:4  with linespoints lw 1 pt 1 dt 3 lc rgb "#7f7f7f" title "base, initial ns", \
     dat using 1:5  with linespoints lw 2 pt 6 dt 2 lc rgb "#1f77b4" title "stock, at the ns root (\"/\")", \
     dat using 1:6  with linespoints lw 2 pt 4 dt 2 lc rgb "#d62728" title "patched, at the ns root (\"/\")", \
     dat using 1:8  with linespoints lw 2 pt 8 dt 4 lc rgb "#1f77b4" title "stock, outside: \"/..\" x depth", \
     dat using 1:9  with linespoints lw 2 pt 10 dt 4 lc rgb "#d62728" title "patched, outside: \"/..\" x depth"
