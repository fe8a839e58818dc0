$t = 'x'
notify { "${t}:y": }
notify { $t ? { 'x' => 'a', default => 'b' }: }
