unless $x {
} elsif $y {
}
