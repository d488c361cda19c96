" Vim syntax file
" Language:    Keli (game description language for traditional board games)
" Filenames:   *.keli
" Keywords follow grammar/keli_grammar.hpp (KELI_KW) and built-in names
" interpreter/check/builtins.hpp; tests/unit/format_test.cpp checks that none is missing.

if exists("b:current_syntax")
  finish
endif

syn case match

" Declarations
syn keyword keliDeclaration game extends import about param players named pieces
syn keyword keliDeclaration const var per region track dice of ordered points shape board def
syn keyword keliDeclaration event on setup phase chance invariant limit display ai safety fact
syn keyword keliDeclaration at by hand override remove extend directions coordinates without compare

" Control flow and rules
syn keyword keliConditional if elif else then
syn keyword keliRepeat while for
syn keyword keliKeyword in where return when move otherwise reads joined distinct
syn keyword keliStatement let emit note add to finish end_game clear from suppose
" Turn order: `turn order ... backwards when ... skips p when ...`; `end turn`, `pass turn`, `extra turn`.
syn match keliDeclaration "^\s*\zsturn\s\+order\>"
syn keyword keliDeclaration backwards skips
syn match keliStatement "\<\(end\|pass\|extra\)\s\+turn\>"
syn keyword keliOperatorWord and or not
syn keyword keliAggregate sum count any all

" Types and constants
syn keyword keliType int bool site player piece direction list set
syn keyword keliBoolean true false

" Built-in functions (min and max are also aggregates) and variables
syn keyword keliBuiltin size index next next_seat abs min max first last take_first take_last step ray neighbours group border
syn keyword keliBuiltinVar mover roll ply repetitions most_dice sites seats
" phase and pieces are declaration words too; as variables they are highlighted as such
syn match keliBuiltinVar "\<\(phase\|pieces\)\>\ze\s*\(=[^=]\|[\])},:]\|$\)"
syn match keliBuiltin "\<site\>\ze\s*("

syn match keliNumber "\<\d\+\>"
syn match keliOperator "\.\.\|==\|!=\|<=\|>=\|+=\|-=\|[-+*/%<>=]"
syn match keliEscape contained "\\[\"\\n]"
syn region keliString start=+"+ skip=+\\\\\|\\"+ end=+"\|$+ oneline contains=keliEscape
syn match keliComment "#.*$" contains=keliTodo,@Spell
syn keyword keliTodo contained TODO FIXME XXX NOTE

" Names being defined
syn match keliDefName "\(\<\(def\|shape\|event\|move\|otherwise\|on\)\s\+\)\@<=\h\w*"

hi def link keliDeclaration Structure
hi def link keliConditional Conditional
hi def link keliRepeat Repeat
hi def link keliKeyword Keyword
hi def link keliStatement Statement
hi def link keliOperatorWord Operator
hi def link keliAggregate Function
hi def link keliType Type
hi def link keliBoolean Boolean
hi def link keliBuiltin Function
hi def link keliBuiltinVar Identifier
hi def link keliNumber Number
hi def link keliOperator Operator
hi def link keliEscape SpecialChar
hi def link keliString String
hi def link keliComment Comment
hi def link keliTodo Todo
hi def link keliDefName Function

let b:current_syntax = "keli"
