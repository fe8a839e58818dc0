@(A)
  a
  | A
@(B)
  b
  |- B
@(C)
 c
- C  
