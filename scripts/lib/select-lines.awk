# Knuth's selection sampling (Algorithm S): exactly n of the N lines, in file order, each subset
# equally likely; Park-Miller's generator so the choice is the same under every awk.
BEGIN { x = seed; left = n }
{
  x = (x * 16807) % 2147483647
  if ((x / 2147483647) * (N - NR + 1) < left) { print; left-- }
}
