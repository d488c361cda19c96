" Keli game description files (.keli).
autocmd BufRead,BufNewFile *.keli setfiletype keli
