$r = @("Verse 8"/L)
  line \
  continued
  | Verse 8
