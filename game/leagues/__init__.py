"""
Weekly leagues: every account that plays a ranked daily, a rated race or an event in a
week meets ~30 accounts of its tier, and the week's points decide who moves up and down.
A global board belongs to the top twenty (and to bots); a group of thirty is a board
anyone can win. The rule is pure (`rules`); `members` keeps each member's points exact
on every result that counts; `weeks` settles a week once; `groups` reads a group.
"""
