// Chapter 4 (04_learned): the learned position tables the chapter trains,
// one seed at a time: how alike their rows are, and the number line they
// learned (a figure file: book/_ext/posenc_widgets.py says how a chapter
// adds one). The browser cannot train, so the tables are the notebook's own,
// written below by `python -m tools.widget_data`; what the figure computes
// from them (cosines, the principal axis, the coordinates) it computes here.
(function (PW) {
  "use strict";

  const {range, fmt, r1, Panel, titleText, svgDoc, RDBU_R, colourMap, heatmapURL} = PW.kit;
  const {dot} = PW.formulas;

  // BEGIN DATA (python -m tools.widget_data writes it; do not edit)
  const DATA = {
   "notebook": "book/04_learned.ipynb",
   "code_sha256": "b378f0a120b769b7a4045a9c6546a0efffaec7f7e7b15d3f98b198b5b2023ab3",
   "what": "models['learned'][seed]['params']['P'][:24] for the 16 seeds",
   "shape": [
    16,
    24,
    16
   ],
   "float32": [
    "zhiCP14HlD9hioU+X2paP+C4lj/JjsC/xFo1P8I7jL/zg568WuqCP/SZFj7okX0/gt9ZvvGvgb8u",
    "w6I/4aqGPC6uVD//qw4//r+6PtuhRb4iOTA/6yOLv2XsIT9rFQy/VTZ2vX4BNz+0ip0+PN99P5GM",
    "6b2BIWO/G5hXPylBQz4c9SU/+sJPPuj4Hj4QpaK9B+7oPjEpUb/owgA/IJ3evvYgPL4u9Sg/o3q1",
    "Psy9Yz8P/8s9gqEsv9wkIT/D6KY9Yv7gPnNuUz4h7Ic+af2zvgtsmD6iLv6+2xvgPjsnHr871kE+",
    "51LjPiAnBz9YCDo/BgMOPgPatr6xNOg+zD33Pp24Kj5xKQw+3kA8PAr6G73/ABc83G7OvjZ1uD5K",
    "9cy+xw4cPWsIwT4deAU/Hv0ZP0kmMT6Ru0O+X3OJPluupD5jk2c95T5HPdrWE71uoX2+cUsHvAsv",
    "nr1CCJw+kJ2qvj79yL1ssJU9T9K4Pla8sz7zJas+xN5XvTtlJT4AWNo9/Ay5vbaF2LteYJ+9Ll9B",
    "vsbZJr6AEtw9JwmuPY+di76M/Hs9gzyPva3eyD54Yo8+6qARPtV5Br3HT9S8+DZfPVzSbr6/Ikq9",
    "o5CevZuNJj06+p29rn19Pliwgb6NPWW+9J7SPa0LXL6ZW9s9Dbo9Pa1sAD9xQl0+abEFvvtAkr0O",
    "kuG+EKsYvl3ox75n83S+uPaxvsenuD7uhIu+M4YSvrphZj7ArVu+SL8qPpG8RLzZQow+YPWGPtiu",
    "ir7E6yE+XBMNv4HQwL52Ldu+/gd1vH8bA7/VqQs/hm7svg5OZzxLjPk8FmqpvimphbwlEh++eG1B",
    "P+EZyz4oCaq+4aC0PcO0Dr8kzaO+6U6VvdL/zD1LyiC/mNQVPybpqb5JV0c+x8VVPci1Cr8zXqu+",
    "kKBmvoijDT984QY/EiXRvnftL70qUFW/wx+vvvGyAb/qdjY9iUsVv5EtZD/XK/a+iAuzPkgIAbvc",
    "qPy+C+uyvugOh74G/hg/h29CP0upL793uSi97eUqv9LQBL+SQTi/u0UfPo2tKr/VcC4/0DuDvp1H",
    "2T7sIfm+0o9Xv9KYJ79qMTq/wtdYP6p+Hj8itHO/jPqLvu3OZr/SyRi/KgkLv/MO9DynATS/XGVN",
    "PyGdwr7Lago/ePkdvn75db/XPUS/9+oev+73dz+iGGA/yDCSv3gYWr6CN2u/sWJGv9H4Pr5tl7g+",
    "ZcVdv9VUMz9aj9q+IfIwP9BHq77KFJC/HXhzv/S+YL9M1Vc/VYhRP2/Ck791yHa+Antvv3RAXb/f",
    "zZW+GNI+vhkhiL9/dZM/Y7obvzwXcz8TLAG/liaBv6QpZL+f2UG/FmIjP906jT8QpJK/DS8QvwSH",
    "lLzcpI08BuMqusOCYTsRrvc86MEbvPkgCD277Oa8GSGHvERNAb2btHS8sv8+PDO9cTxbDMk7mAqv",
    "O+Y8wLxcY9m8SCjHOx/T3Dyto+67P9fPvHI2+7w0CV+8b2UBPekkiLuADqq8H7ZHvLFyHryJEq47",
    "MUZYvMXOkbwIcHa765IZPP71ajz5ZTQ8oOkVvFfcCr0y1IK88yy6O7iA2rx5jqU7xVJBvHTDPryH",
    "a7c8P1mPO7aA4Dwg45m8uUK5PJnxlDzDWXW9eWXnupSt/Dwv9H48tJwQvL+PmLvUfdW8IzKHO4vl",
    "Er0NWaa8KF23PN+j17nGLO674NEKu6+dYD3umqk8hCl+vEeKCD1Gxei69GNyPCE6QLyIqJm8qGKD",
    "POXye7zbAoC85hmTPLVkvry+h+i8epoyPLKNIL1SU3a8PaHvu0Rq3LzBEre8eDFaPHypvzsE8pq8",
    "eIAtPCjr+DyAHNK8EZSgOmLtIT3PQ0g82EOFPAwsg7sHvYK8fFS7PGw2VjygEIe6MXsYvHQsD71z",
    "WUw7E6livPPSLLt/3Vs8aFmGPCyaazwgvDg9neS+PJN5dLwSEoa83Lg+PdVbWbx0ZWe6WfAOPciE",
    "DD3vNo+6UI+eO7ryBb3o0pS8UGDvu5tn7bgt5NO7YZ1HO0mgMz28Jxg8eVDKO7I0GTifUmG7bfZn",
    "PeQ3dD9jR46/OJUQPiwwn793Xba/RYPAv0hCgr+ymTa9bCJHP93zX787C2c80JUAPzAu8776AH+/",
    "zEWLPyY9UT5GWuU+WGgjv48vUD6/k2y/c2lYv9yCib+KAvm+vZ32PQJWLz+PTRe/6u1bvglvhz4R",
    "VBm+4F5Gv8OivD4h0Js9lcGBPvuPRb/z1aG8U5xvvxxZDL9eOiK/M2DVvuIXCr5RjA8/kUnsvrFj",
    "875JURo/xpu7vc/6s75glNw85DsCPElvOj28DW+/MN7gPQ1KP7/XFba+SMLrvnseK77BncY+HpLs",
    "PrAfn75Yvi6/mg8aP96flL5HCGC+Hq9evt8DKT7ojFY+aCWbvgXWhD6gReS+TC+kvsPatL5T06y+",
    "6bpWPirJqT6DO9S+1MyRvuzylT6PhYm+uUbCvnXmMj79Hhc9ezelPI9FVL42x5c+nLmGvtEbEL6z",
    "tbm9VTRKvtPBYj6ZdNs9fm6qvNeND75O7oM+YXUEvs/BMb6bzHu+rp1WvpAOiL4RBUq+4zDBOZOC",
    "2rygxoY9a/3fPWIM2b0JbQU+P1eevaIN+TxNB8a9HjCZPrCMyrxt6d09kU/rvWXm5T2pfWW++m8N",
    "PbqSED071KI93ILHPYZlQD6iLda99rjavTxEz7we8wE9UCivvV3apL1ksNk9+x1LPqBTBr6Y1k+9",
    "NphHvt0pPj5of6S7zW4HPllRiT43vrQ+hiAyPOaPNz4+H6O9XbdAPtm5U74pgWO8FtPIPZFuyD5m",
    "itq8gTxxvdk6275T4PY9So8sPqvRgj7k2JE+uiSbPpBvCT76pv68kzqmvcrKgz56QZO8zJ+Avvd4",
    "RD4QUpw+RJj3vhYp7L6nGvG+sgSIPhLDQr71knU+pOMdP0B5HT+mbGQ+Vi0xO/GMvb6HhQE/mlqY",
    "Pp6gnT3NGbw+vYmRPoF7OL07jhQ9t6vsvheV5T7FgsS9vYsIPxE0Bz9MWgE/l3t6PrjtWj25G7K+",
    "qxmpPnEU3z0sEXG+cF5APp5J1T6WoEO+qTuGPdS4Ar8vpRg/ChfTvtbGHz8XDgI/5uVFPwnQjz13",
    "8rU++V8FvyhVWz6Ycaw+PY7fvl2RwT5EH/8+yBZsvt22lr78ZwO/bP4bP/UCNb+fczQ/4TEEP7/+",
    "Jj/kEco+FAMevd3RDb9Oiwg/C4S4Pu9Cb76KGdc+yQrpPjQp3L1ovZi+nKQ9v2YeHj+ZjgG/rP4o",
    "PwkESj/DpgY/ddr7PiTaGb62Q6i+MAgcP/u+yD5rSQW/0TqrPpVQHz9isCa+rWpovpJyMr8DgjM/",
    "gtQiv2T2Nj8aFRY/44Y9P5uiFD/AmfU8m5tJv9tRSD97kzA/nbUQv5PKHD9iGAA/AspjviF/kznL",
    "qbW8eCsjPQQQWjvlbHG8Zp0jvE6DPLzk0nY70klPu6vrVjw7W/w8tdZlPEveyLyyBQW9L4l3vA2P",
    "rDzBk9u7EcBavO0/NTt26+e83qq6vDM5Jzy3rMa7NoQUvFAq0DuNpj+8ROJgvKyrFrx7d0U8e9Cc",
    "Og65w7yDnMa792hUPINAGT3NKbu8zNzdO8KSqbvLQIc8aE8TPJMz8TyzNio8a58yvHh8MLwC5AQ8",
    "PGoBPGRwRD0/Uwk9ckfAvPiF5Tu4Edq8EKIHvSmlczzwyzQ8sSiqvJymBj1BKqC8FFK/vJbZVTxW",
    "y5A7jGFSux7Pr7qLq5I7RfM2uwcbYrsYURu98N3bvCoySDwKyWa8IKYyPB1ryjzenui7dHK5O94a",
    "Kj1tt2M85eIWPcE7+zxy3HY8UakSu8Xzibz+I7a8OlwfPBFqGTx94WS7QgOLPEAYRrz25bU8k8BR",
    "OrR0ProQaLe2vjkBu6/WSz0FBAS9BUpoO5jVyzxbHWs88vjFu/yMDj3XD6+8CAbWvDYlOjzjTO68",
    "Oc1CvfOmkDyxenk8rfRvPAu8H7yJym87uyievPsTDj32mYE89DhzPCW+H720RIQ8usX0PLtFxzyG",
    "SoE8GZagtwkG4LtdJUU8C9r6OxHpmjtOp8q7gboJPeZWv7yJUe25GR0+vAYXqTy+Xuo8bO1zP/ei",
    "5D0+9mS/FKFfPxpe/76liia/k4C9v8kNNz9vJFS+byFqv4Wcoz1WPwo+zdjqvpIdLr/6Lc6/0Oy7",
    "P++Tuj4flLI+oZuAv/VCnT0+2+2+LgEGvuORPb8Zw68+szB+PhzwB7/uBBe/fHaWPsPenDyavYm+",
    "UiCmv667ej+k88e91yN3vmV9Wb9DeJQ+2zIlv17asL7kJYi+N9AKvtCXVT5SdPK+B1bAv6F0ND8D",
    "fDo+NUQ3vjVxNL9URzQ/zporPTbJo75ojt++BiYPPxVXx77tShi9HGwVvm+wFL5A/gU+z5qWvl6q",
    "UL/F0ps+zQvSPdgMD72mXR2/72/NPny5Tb4TEuW+HprSvmEEnD5zPMO+b/6QvtLa5bv64OQ8D6ec",
    "PhXBzj0J7E6/PHHuPq/c+71OrJW+4pN1vuEJGz5o2L++nrIPvptFyr7Op5w9vXSQve8Bir6R53A9",
    "Voq4PZNiCT+HbOc+DKQZv2c42z5WeR8+Uq1wvi8GIr1SWKG9S9Kjvq5e9742av697+8dPgWEiT32",
    "35+8CDeMPsuRBr7V5sY+FqkoPvzh9r5y61a6p5mkvfBRCr6QOq09D/pevsFp/76JbyS+sfCWvU0r",
    "+z6lj5o9k0GUvrQJvD40+Pm+PCi9PpnENz4Mnr++cI2mPpypkj4uOYY+gjSjPtB/A78rzNS+0nkS",
    "vuJQaz161Na9y+a1PuJKlz28lLI+qEOVvotonz6pfbg+vHLFvSr5TT7vv+g++SyOPqn/8D78dy6/",
    "aACbvtddTbtoPcE+uQjdvpJpAT+0mGs90JQSP0H5bL7q96c9fsgKP0cr2j53c6M83LKHPqXUkD5M",
    "r/w+3qpKv+M3gr6Ud3q9648pPySW6bxy0Qw/5C8svXDLWj+B6La8x165PkL6Ij+26R8/6VYaPhh+",
    "R74c2qk+eVFDP7d7K79vcJe++QP1PqSQ6D70Vqi+87YNP8m6vDxsImA/yYzSvWRmYT2Sdks/NaT6",
    "Pg5Joz05WJm9cP0MP811eT8q1X+/FjPRvuALCT8PewU/ZOjCvvqYaT+Y+ie8Io9OP6pEPL46IKK9",
    "5JdpP5JTRT+5LhW9HKZ/vVtGDz9CSII/G+WcvxpcK78NJw8/+z9mP+yp3b7vA2w/fXYCPpSfnT+c",
    "T9++ZtAgPxBbiT8S/no/XxzuvndDpbxTMgY//l6ZP+bxmr8MeJW/LF6/Pka4nz8Z0iK/y/SKP6p1",
    "2j7Q25k/TeItvz6BGz5D91o/THFiP1Cn0z0uavQ+DlGHP1VlrT+5Wae/olaLv/FGjT9xU6w/WuQZ",
    "v361eT8sWXg/jJO2P5XQob+B5ag+Lw66Pwbtij9XyUK9KIPmPLCRqD9f8ag/W0/EvzqchbzxQtE7",
    "l5s3PKxw8bv8/S26GLhIu1Y7N70JqSk6tXiKu9DxRTy6XiK92OBKPOxogLyBiCA7k96uPMSsBL3z",
    "Yu68JJGLPEBD0ryrerS8kOwWPC8A4rtxz1A8FNlQO5mcWbu2eYo8nOMnPRNOnLtjyts8thyjPDls",
    "EbrLatE7cyewvPsKd7wdDDg740Rxu9vRvjwLWuu8xM0MvGaifbyKwby72ImoPIPn27z+Z2o8LoBt",
    "vO09Frwfu4089IwIvFU4LzwrO765y9THu2gqIbwFmBi95K2PvGtYRDpwnME6qasEvduMjzwgtRI8",
    "6t3pvLVTv7yvrvs7lUIavQ27jbydw2S7iOehu6DNZrtH/rI7jQuWvDW8Rbxe3B49o6T4vCONOLxi",
    "ZA6437R4vEAktjyxIEO6vsRUPMhAX70OJLE8Dd2qPGFZjbzI9sQ8JPNTO7NEhzxrPww993qnNn5e",
    "trxDdg+7yCXhvDdHk7yO4Yy8HRGEvDP3rzwQIHQ8E+mhvG3gqjwu6BC9a79zvO0kk7tcObU8CKVT",
    "PGm29TvHwsg887tRPCqn0zxGHY28BowQvRRxILztLXk88dV5O+mKhjyesVI8dwsTPPd+djwARIC8",
    "Mm2oPMW6r7w2w2u7y73yvEWFEDyikwS9cerbPCkX57zqjH87bfqFu8RemrzPYsI89KHyvEz4tT6q",
    "p68/j3mKPlKIoz6JA4+/dxCOvzTfNT9CI2+/sLJTP30bqz78Z4w/g6NGP6gohb+QArm/5LPLvtDf",
    "Er5nzhM/nVEAP3fNIT6J50u+v8B0v4YaSr+2OdY+piIwv2D56z5Zli8+4WY3PwhgoT4QUFm/7NqR",
    "vznJlz6lAlq+UUg2P6EOnj7VJSk/n8p2vpJxDr/15Ge/Q7jgPutYH79oIH4+ogQLPdzhDT9+e/Q+",
    "dEtRvzKtQr+jrRE+QJ+IvruKKz9yuj0+8agfP0fYgr177Sy+aLNDvwIAqT4a+ji/97KxPbNib7wD",
    "EMQ+pKWqPSrjG78E5qq+S+G4Pp8fib63KBg/+4OhPYLoqD6bcK2+Ay4lvvjXIb+i1Vc+NSoRvzDc",
    "7z1snJq+WvpqPpUIFD55/vC+Pb1LvqxLMD5nski9XZmVPtFivLw6EXI+LMDXvoknHr44kRa/Idw2",
    "PouBnb49D36+Ya2PvijeHzujV5i9j6Wavr1t4ryBYGe+WFHqvsWF2T5Oj6+95axZPmNmTb3qSTW+",
    "eUPJvgXBRj54Bw68Wi21vo+Dpr5Kg8+9NMjOPeJfIr6TUos+kJVXvmuaTT68Pfu8nsy7vYr4nb0c",
    "rh6+P2tvPnrgq72ZBjI941PbPF8Nqr2Sb5C+kUnbvQCylb4XLtA7lga+Ptv1Ar+qN549IeWRPTBh",
    "wr1tOrg+weAbvqqEOD7AZlk9DdKwvBlKwz6/VrK+gnWivm801L4Zc22+DZylPg/sKj/RexS/dTiv",
    "PYtgej1tH6++qWQWPzloj75V39Q+ADHBPiRvKb6+vOs+Sf3avqTUVr4fv9W+cpCJvhIv4T7TGCw/",
    "KBTSvtCvBb+KEiK+V4f3vhR/ljxWsoY+f+4cP/lJND9t84m9bMBGP7CPDL9+o5i9YEKXvlUkHr6Z",
    "PyE/r9BCP6elLD62GAa9UnTJvucDKr9z2Gq+PPb1PnwXMD/bcUs/CkPfvohsUj/q9D+/DInAvhJ5",
    "Db+pc8e+XLYtP++Scz+MJIq+EJfmPkikHL/pieO+Rfz2vdJHaT5K0lc/WulYP0+Xqr4NDm8/Zgoo",
    "v5XBjb6ppRC/XksSvzAoOT8b5mU/5hHVvu/rvz0sfKO+xh4yv/2bcb7VTkQ+0s80P++lcD/wpcG+",
    "uBCXPzRbQb9QWC49nMhNv2ltKL9OeIs/YsKDP0sKkb6gLBc+zUXgvl4QZb8k7BS+cpbvOZENeT86",
    "s2M/z6Bhv36mpD8jY26/5B7uPqfXg7+cVCS/DVGZP6OBtT9KkhS7ucWxvlN/Hr/+DVu/RK0/v4Lt",
    "JT/DuJ0/WaqZP43QPb7qhZk/BWGTv6DIGj5ZWSi/3mAwvgiqtD8e3bA/ZgQ4P/cQgLzjnkY7r2IO",
    "vNCQbzxF0Ae5De0lvCIyoTsaCyG8Niz5vAwOtLzcYnq8d5cNvORlMjtppZs8esVBPCIlFT3RoNc8",
    "7RxAuyi9Cj2kksg8l0MGvAXx6Ds0mLo84Ne7Oy7orTzDfxA86Yd1PAlksru6WAs8rvvPu7zIbDyB",
    "hAa9zSz6O+ON1Dwsmk082eXiOb8RQDxU0YK8MoCAvNZDzLvh7QO7JQCmPLzFirz1qqs8Iv75vEp/",
    "cryUplM5tVrFPDjCObw3xiu9YegYPHvetzk7ram8CGijvJe6VLwCkD07gZZoPOui6rzASD89zAIs",
    "OdVF1rtofGs81IZKO7MdQz3VBbs8B93Tu/9q4rvAdRS8eY3Cu7UVazycFkW8psQHPct1RrqMRgW7",
    "KKaiPIWRHr1LOJK8kGxSPD8ZjzrUBiI6/xkQPCT3NrxALii74Q/YvMkqFr3zF9Y8+wGSvGgTXbxS",
    "jOs8pk+0PLUoH7xxuCC8V7xauo3qlbwLsEA8cvVxO053XTuJ3IE8elF4PPoXGj0F4f48O+cIvUJ1",
    "mTzE7bC8lafjvJKqdTwQf1m8Lda1uzGdtTxxyEy8mGKMvPdX7ztTs848kts5PI1B+LwswUi8KwgV",
    "u4tGIT3ZqJg88MuRPKlhyzx3XrG7O8kpPFBGLTwuwZm87pHjOR54RTygmaq85vXHvZkW0T/teJ6/",
    "ebTGPg3mlz/i4Dc+4m71v4cX+D8L0K0/lsuvPxGgdL7dSmm9UFuGPp6n1r4G26G/y+0Tv5H9HD4S",
    "HI0/6hqIv7OVWj7GV4c/pfq8PqbOg7+7lMo/uZ2fP4/shz8aQNy+lEdbvvV+Pz4+7e2+fuMsvzrS",
    "Lr/nVYk9KzI2P09udr9UrrM+dqVSP5Y+bj2XyEC/q22KP39ePD+lrjo/GPCUvp/pPr6aUPM9KQEI",
    "vnwLB7+j4Ee/JovJPQ6D7T5iRCm/0IijPjC64j7dgwq+s1Iqv3BLJj9l0Dk/Nhq1Pnchqr4Kcnu+",
    "4401PrcAj76Ez4e+KHM1v2JMtrwUEfo+H0GWvgNKlj7Beu4+KrhTvkL5tb7UZf0+WXKiPp+OLj5D",
    "8QS+IvYJvxsv2jzBAhW+9/UFv2HTo76GAu+9oMzQPmSXUTxXXbk+i+RzPvJqn75tDVi98BuwPbnl",
    "xT7IYAg+pdb7vZ36U7+28tA9eTgNv6zU5L5M2s++Vh+CPk2t8jwMmxo+enlrPg0ryLwEyAO9Bh2R",
    "PfBSLDzl7KQ9n+LRPXadm7664NS+UKyRvOp/eD0Wgxa+pCiRvh37Cj8IpX4+O0PjPgxjQj306H+9",
    "3VxOPTcddD6plzm+qLM7PTi9G77sxFy+zkz3vgvAiT1sEHa+mpDvul5oa74aDwQ/G8GjPK9xEz9S",
    "r8U9EbxdvlOKDT5KJcQ+1mLBvk5gEr5uE2m+re7WvhsA9L7rx0e+zncuvSvW0D2gnUa+vVq/Pmno",
    "Or6aqPU+8xwQPm7kEr8xHDG+htgLP1H41777FIW9unY5v1S4kb6YnDe/hGJ5vdSUnL6Aer0+G5e0",
    "vBaDEj8ekAW+JMNmPxThGL5ihhK/0yFJPDoDJz+hTCq/n/yivcJOLb+DZyG9hy4qvul8dL3faeq+",
    "rx4qPv4EIr3p0fK9oD4Dv4HNHz8xpdS+9L0Yv0ikJj4Y4RY/fj5dvzGWyb4goVG/YQ8BP59RNz5j",
    "wT48Q9KjPjvbqD6UzgA/vCn9vU10Fr8t9Xc/UR0gv+wDTr/5Baw+5t9RP4qnSb++UiO/MjMyv7Z8",
    "Cz8Xi4e9Qp9ZvoVNZj4vdMA+2EjtPssjdT5kIA2/fRmIPzGeCL/i8Wy/horTPVEbjj8jZoW/s9Az",
    "vxDBj79CUgU/GZbFvt33aL734wa91tMIP3GfFz9aJeE+zuYqv3i9oz/1qRS/vhqYv28ujD5sI4k/",
    "YOCKv5eEQL9vEZy/tZEZPwHPub1jgxa+87p9vWK0MT8bCU8/O2jlPtsYiL81WKE/L/zTvmlug791",
    "eHE+3p+SP6IUfr+lmkK/QeyRv9deDT8n0ds9Ng9AvlQZjD67VJU/aSVRP7uyPLxz07+75gIKvA0l",
    "Nb31f288R2XSPKOlg7x2uKm8A1JSu1OYjLwZcoQ8RHZWvKEtTTztANS8b+LwvJRLBL1v1fG8vQgQ",
    "PLPMjjzS3UA7IlKPO/tlO71OYLw84tjRvHOQ3Dwvskw95JmlOri2UjzfrVE8QMbevB95v7yev2m8",
    "X5VNO/U+jjz7JBw7sHS6PP06LLy9Ke+8MbkgOr6ZlLoL7e+83gmuPH5FobyxHXS8VbSXO/RgtbwM",
    "SVI8Xl8EPN78Gjwnl1w4dJsevMN/fryK5dQ7wXfoPEC3hjzM7wE8mOqrPOfC4zwQBtC87+e5uVF8",
    "0jzxhlG8ykkTvK56Wjwo3nu75KbRPNzUuLuGiFY8bRhXPVqpyDxwQN28+WKovEyyorzwpDG5vTHl",
    "vDZoSTz/cRQ9Ou0GPb11c7xEG6S7d1yzuw2ihbyrdRE9sUhdvK3TtrwNXQI8qxnyO+JfAj00FgM9",
    "emhZux9sLr3Limk8MYqKPLQqGD3QAwO9Ou/BvGZyAz3KMgk9SRbbPAFfzLnc1Ng8R3A6vG6c0bx0",
    "+7a6a2//OkOMhTzvabU8SRkVvW58sjuaFx08eavXvKU7wbsqGyg6N7YMPCPSlLz7UFO8TvC9vH0r",
    "zzsO9PS7Jm5QvIU6SzwtY4m73ebOvKgtuDyG+5w8Ql4NPPLzs7yQRrM8fBePP8CEgj7+dVE/XFLK",
    "vt73Eb/uNza/p+yXP7rr2T5dT1A/v7eLv/eU7b4p/q0/fAOaP+Mxxj90nS8/W4uKP90THj+hoDQ/",
    "fU3YPhn7L75HPvm+MmwSv2BuDj+IXJw+WqMpP5GkBr+aiY2+1N0dP8rTfD8rcx0/HWNAPZeRST8u",
    "Gc0+gBiTPuNCAz8EQoW9l0bwvlXqtb7m+6Q+Z5tPvUqs6D5I7bK+xJmfvtuw7T6/xys/kJctP0wa",
    "Tb6MoTc/6kk+PnNjBz+o/tg+757ivT8UxL4DnHa+mGQmPt5Ayj0aaaI+bUiTvso9Az5tuvM+cEEJ",
    "PzvlKz7YzaG+EdAZP/STqj5xgVA/fmQsPr3ZHD735eM6AY0uvHua/T3lyRi94b7SPcOVQb2a4rE9",
    "JEU2PnKOFj8UlTk+yqvKviPqRT4g2MY+m6ELP7SXoj0csNA+ngjgO6biJD036Ke+xUQ9Pgh6qDzH",
    "YmG+9foBPzO5HbzjdaM+SAmvvYk7/T26Js49YbSnPZysKT4YWNq9fOtOPiJ8Xz6fz6E+fR2rPRyj",
    "iD6p8lG+WEEFvgUdkz1iPUw+BGJiPseN0b0SXaU9cfaMPvifgr5VO9o9nuSEvTLhYD5lz0U9QcyM",
    "PuBcIb1bILE8iUIRvmXhKD0Ycto7oPglPR76Jz0wpEG9pBCpPV4AKb6Js+2+jwBsPdS1pDw4FYI+",
    "KnuMPssHuD5WPmK+7HnfvbLOJ74SVYo++2AWPWC2AT3/Gjo9JAEhvGtrVb5g+qK9Fqmyvu032z1z",
    "9x++poN0PskcqT41JgQ/wESSvubBqz2YvL6+/vuJPncpIL7uLUS9FYXJvWPgXL77xxa+oZPSvSFm",
    "H79U7NW9x2Obvo/nAz0dM+Y+JS8KPwU8sb7KiWg9re+dvpK7Bj8WjzO+WgU3vofxtL6VbSa/YGXf",
    "vnKMsb6MVxm/IgqbvoNlWL4TQ5k+SNEdP7QpLD+wv9m+k1tOPQFYkb7PgDY/gRVtPJOz7L45P9S+",
    "4Zahvpc+ML1udeC+K1JavxQ5hr4y1Sy+/v4NPtuPEj8x66Y+Jm2wvrh5Gj7H11e+yzBTPwvMRr60",
    "Q+W+oKEvv99pFL+e52q9/0S4vk33Pr9PrZ6+Ho+fvninQj5ksfM+JrYSP7xWvL5vDqe961z1viUW",
    "YT+tZVG+UMg1v2lvVb/7uxK/g7ZTvrtqgb25DWe/eTwevtFIA7/Qw4E+IatSP+WrRD8moUa/Wg6U",
    "vea+FL+WLFY/l0+AvnxSWL+uYoO/e22IvxGLt76NdPe+Se+Sv4f9Yb+2sTi/JIUHP57iWD/+G1Q/",
    "TZkzv8APQ7//+ly/VPZdPw6OJb4JcTO/UyRmv9K6ar8ue+S+xt9dv5PcpzzoMBY9rhGfPHycOLxs",
    "QEe7uYCrPMxKsDuET4M8qGiSupcbAj0zjOs8agS4PKt/ZDuNGv+8O9fUvJJk4DtIhVk8BYZnvQzj",
    "D7zGxrw80EidPHeuFrygA1U81dOVOmY/c7tAErg8LEa7POBtHryGcpK8jm7MvJ2h3rzMtdo8PsQY",
    "PYGbnTs0Jq48+mZPvBxwJroolpg89xXiO9zOVDgw8gG9YDrivAob8LtOkSS8pBQyulVxP7y/ImS7",
    "tAEAOzNIMTw/EQY7NN4ivAUcmbt+nZY8CRBXu89zlLz3/5q8vuvLOx70PTy87Mg850W3u1IK4TzU",
    "hsi7ASR/u1b5KrwnUzE8eA6sPMmF0TjVQha8IlPxvAWdYTvLxsi7q4xdu9uDQLw1Q4e8jqgAvOCV",
    "FjzfaJw8badsOfU83Dst4F67O9kCu78n1rw62Y88oV1EPGgE6zxWRTy8XJk9O86Dj7wsb6Y7GLsB",
    "u8bBXTxj0B27JFlTPKz6FLzFAEQ8HwWyu8+0A7yJZAw7WWD4O4ZD3LwEG+28h8yGO9dOKLqCfx+9",
    "uE8Fve8xbLycf9o7cxuRO+7Pozzn7708nA4+PfLY4LwqjJC59jatPL41w7yOptu8zBeOO/U0sjza",
    "RMs80RULvZu2vLxak7C68IEfvGR33jtfdk07sTQOPbRVL7q4VIY7hM8oP0IJYT9ZNxk/y+jpPi7N",
    "Hz8bIDc/vMR+P1qYBb5CU5C+WFowPxJYWD+Qbha9l52JPolX9j77P0s/8v9VP8Yz2z5q0Es/ea+a",
    "PcL/tT2O9ak+4zghP+i4PT8h66S9Dz2XvoghCD9sMSU/4CR2PvwqGD4vqpQ+m6koP2+BDD9L2Hc+",
    "A6CWPkYYSL6Z2xC+zMPiPgS11j4hE6w+7gIePlaxrb7ZKq8+pD2CPgcRLz8mB76+MvODPcR3tD4u",
    "oT8+Np1CPollPD40cRW+l1cfPlqehT7gLzI+qaIQPiZZPL6hGtu+s0rXPDLmDD60qZo+hlaOvsQu",
    "UT4U5Gg+8xpdPcjt+DoweOM72xMnva+pGb2qQHA+FIezPTbF1z2o8Ku+gBDIvu4ZlbxoJxo+ZHj1",
    "PllzO72iBdU9rGo1PvF4iT3cAc69OaGdvbo6RL67tKq+9+rKPQRv7TqK5q880ZCwPV+Mpr7J45S9",
    "EheQPeAOoz6gKRM+sxAoPokgDj1ugPS9rYq+vSz0mb3hKIW+0/PVvd5CDb5EEiS+oi2Vvh6tpz7u",
    "OU2+k4SOvq0f/L3ItAY9gF1ZvoM2Hb70Qy+93yZbvgJBHr47e729a3qvvqQii75k3jG9MgaMvl/m",
    "wr7RIXo+oVBwPWD0Tr4DX2y+B3qNPDL0Tb43t6a+3CE9vnsf2r63fKC9ZgBNvqTHqL4uxSe+B1zE",
    "vgqA8r5ACfS+kNboPhkkgz7l1Ce+c0rQvukGz751NaS9tgtyvmKL2r1yGMC+lCmFvr5Fvb7W+J2+",
    "E3Qivi7NCr9KUAy/ipEFv502AD7GcIk+LPgXv1+p2b6HDqm+VlM4vcD9o77omx6+XNPkvqnaxr5T",
    "/MW+/p3LPNcJcL387ey+cGwlv4a0Lr+URFY/6TYcPuI4B7+fIwa/pFsmv8rCqT5G212+yjIXvy0v",
    "Cr+45SO//9f7vqGNFb5c1uS+jwMXv4ZmE780djy/PJq2Ppctbj7p60y//Owbv9j7ob7Vst4+5HPH",
    "vsY3D7/etBm/3ktDv9as6775QY++ByLLvr29+r4WSCy/3lohv7gqDT95U9w+xxMpv9jhHr+oUgW/",
    "USPrPjpXr74DLEW/Yv5Mv9kIVr8jRFG/VAT/PMd4Db4JbC2/OhoTv/YiWr9lYqM+5TOTPnR2U78v",
    "BTu/JlT1vnbeGT9D0eu+dcwtv0BfOb/ueDS/3YUyv1J+Gr7E25G+U21EvyKNMr9uTVW/qPAOP7B8",
    "wD6FpTO/H+o+v8YcGb8WMYY+KSLovpc5Tr+cxWm/gIhlv7qRf7/DoeG799ENv6TZY79DG4C/K6uK",
    "v3bp6D6OllI/XLtHvykFbL83PSS/XggxP3oxD78BsHK/tU19vzO3gzwSGXa8nJnhuvzF5LtTzei8",
    "c91Vux4+ojzuWs87Mg+7PMRBGzyDAl684A46PB+TC703odE8aazqu75bCT2nD968NrOcvLAXDbxQ",
    "3qm73hcCvWs/0bwrzhs8Ew+HvF1JjTx4ngU9VRj0vNXHA7w10w09/HGwPFDs3ryOCPM7A00IPenx",
    "ML2tju479Z2xPFx0IbwpeVG8vLh4PE+zAr3QmTo8tJTLPEgXBjtcAAC9UBUDPd6k0rmLJTw86FeP",
    "vFuf1rqoN7Y8rf/4vBQ92rzfhyu9rV0QPMSqEDzPco68ZDPYO0JjlzmtNR89hefGvLbTnDs97BW8",
    "7AcWPcyKEDwEVce8skwLPJy5Zbt67Z+889P8OzKaFjuz48W8BSUfvCcFuTxlEKA80o5Su35g+rvt",
    "AaQ7uXk9u+rOy7z110Y8OoWJvO616zyeGjg8ZjllPNtT4bvUET87sNhIvLj7Cbwjr628r+HmPBln",
    "vLzaCgo9eh1wPP+tl7wWZdY89OkGPCUJhLx8OaI7ylHcu3nIerw4GKK6x12yOyVa17uFWUm6JriB",
    "PI8xHbt9F/i7ExHUvGxTqbqsmBm8h4KQu3tqgzx5mo488H9WOk+SO7wG8UA7L1zXO3v5pju1Mei8",
    "mNrTO1LKo7wD7NE7lsgIPGrkVTsh5cU8+xabOSu/1TucVpC8w23qPqUSdL/YV2y/iFIEP6SQDr+Y",
    "7HI/G/Zwv8pGbj/O2IC/bRU+P+11Mj9x8GW/xwNjv3RsoT8RTAU/8BkVPr4nkz7c2AC/Nb08vxWW",
    "4z71W9u+GNMOP9pNW78HQGo/jW03v04TCT8j2gI/KFpXvxAKJ783I10/RGA+Pwiw9D2CJZo+haXN",
    "vlb/Gb/ajCk+I4LvvupGtD7TBRG/xOgTPyfO0r5s9u0+c2TgPgneQb853Pa+dCkpPzU7HD8vjAG+",
    "cwIxPuAfkr4aRa2+2Hq0PYIIh771sqc9z/6JvtHm2T5f7HO+SDdVPifUkD4MW/q+/AKavnEu2T6Z",
    "FCE/mxhMvmFJBL3dxci9ftFOviz2oj75B8S9whdePQVuQL4QOc09xXr6u19UGD79ihc+kZYjvnQ5",
    "5b1kvIw+OKKJPjBQ0DopOZ++sT8PvU6/+DyEAF48lhkEPgrcFL4AERK+4ZzmPerC6T1cyHU8Bakd",
    "PbGbEb7IwuS8MQcrPvCXFj2CB7C+bJ7svh860rwWbas+y/88PgMmoz6FZVW+5KV9PXEmZL3fIyI+",
    "EZnKPClu/z1+i5Q9eQutPRjEzzxqBAY9uWHyvbgyhr4Dxgk9iSS2Pi5O+j074aY+2AQ6vTXpEj42",
    "GiG+7+FJPltYUb1hGCO+RomjPn0pmT22y8G9TqQdvmaRFb4LK6m+pxxxPBVHwj5AKyU+/5P7PtUH",
    "Wb5Qi6w+HYO7vjCKtj7ugoC+ycuwviPepD7pjM0+PpthvkEP1b01Zva+QckHvyghgD6q/ew+mI5t",
    "vr+ZDT+we/K+zZrEPnkMsL6sC+Q+gH/Nvvnaor7fYrs+/nXcPk3pVb68BuS9/rjxviiP1r7KRPI+",
    "R20SP5TAA75x78g+CtLHvlOkpD7vUxS/nL4cP0KQ075WyUu/6dj5PvVkBT+J+fm+aNIdvimAHr/0",
    "Tue+exHvPs876T4yOTe/csy2Pqwy3r4RhdQ+CKLLvoxaJj+bMe6+Xb15v8ueAz8YFS0/YXUav2fO",
    "Gb9A1Ye/CsIGv/LsWz9MX4I/osYqv6UVJT+ht76+VHcYPwBGBr+zCj0/6v/evp/WIb/GTCg/5QQP",
    "PwXqNr/SiAO//3RFv2VLib6m6WE/FU5GP2FuXL+a6Qw/HMcivz6+Jz/0pwe/U0lgPznJ5L4VBTi/",
    "xPo4P/UzZT8YsGy/CNhIvxYZZb93HAC/EDlAPzsfYD/gYU6/cvJbP9G3Yr8eBFg/pukyvyGwcz+7",
    "tVW/zGNMv7jcZT+eR4E/qmJbv36Xar9+3AG/Q3Uzv/u4iz+duJA/XrRfv8GOgz8/tVW/1kOHP44s",
    "br91TXk/MFiJv6i9Xr/9F4c/dt9yP91hVL/oN2q/jCo7vw9E17p60hm9czRBuwcajLxqezO8DMCU",
    "Ozn0UTyR7ZI8JaoivHxjlzyzTcA8DTq6PBiz4zzw8j67+jxkuyMthzwv5N+8XUCJO4TaLbyJsPG7",
    "NKoOvSPokbz55Na5bZCRPLo0ojwvktK6ohp4uzYZiLwc2AM8skCiu0eJRjyJfw8977wpuplT9byv",
    "Co28I+fuvGsixLwG29U8K4uUO70Q+bykLlY89H/OPO/Y67s5gl28lhrduw2FujuWtFE8xbHBPAan",
    "xjxxN8I8ICPfPDu5WDzg0vq8Tqgrux+7zTvsFfu7DU2VPOAR7LulrJe8SqLsPH48WjyusI87/9SX",
    "POsVrjxRgN875VRJvY1gXbyinBW8YUChvIs0gjuVVMM81OQevFXuubz5IiY9Ve0TvEwCyrygw5s7",
    "2HwLPOMHZ7wHgoE8Ua8fvF43l7wnFWo7ypB8PFGzT7zErdg7LRX1uqtgZz1LLmi8XcjiPAA5ibpF",
    "Jia7qHlsPK94kjx9ls88nWLXO+a8RLwGLTC8zwAnPGpZPjyCDuU8fhwJPK6yrTz9gfg84wFYO9lk",
    "87x3NsG805HrvBJiAj3l1oq8LtPJPMHuPzzNgww9zlikPMItBruKF4O7F0PfOtG3ZTsC6i289hAr",
    "uuPVAz1tcAu9HWepO1yYlLw7J3U7G5qJPIoFl7rYSn08qN02vo1fmz/jT8s/Vkk4PxVDUj8Sr4e+",
    "reERPiXoWT8pj5+9pN0cvy7wpz9dOZA/+ZLAP4W+OT5f7CQ/EGSJvwLxhz4ZKI8/YEuGP2scGj9o",
    "Rh4/U9yzPZV6TD7y33Q+75Msv1GiPr95c4M/HmQZP2qlXz+Fa/k8HUccPzEPgL/YbTI/RaVgP3Yl",
    "Vz9e2ys/bcfjPl6LmL0dSww/ntpEvnx4Bb+Sl7y+/v00P/vanD5ynAw/pTwDPtEaAj+puiC/+lpu",
    "PyUBQD/l8N0+UfNUPydwHr5ThNE9WKgTPxMZBr+3FiO/jta6vi2ojj6xfa48toEUP/d/AT7AYEY+",
    "XIm+vsKIYT8CABE/QrqlPud3CD/JFds9njGYPSdRoT7XE1O+m67Avm/kwb4B6Sg9GgjPPQTYWD78",
    "cxm+zDafPrzfkL6X4IU/vGu/PjLQDD7PaBE/2FtPvJdB9DtcQgE/j+Nbv77Wwb5z70y+rEyfvWzG",
    "+b0MWMC93X6KvswYzD7BunI9+roQP5iJL71V/9I8gla5PTjwSz3j3uu7qPZOP+fmTL/0B22+ruDY",
    "vJY0g767P6K+gRAHvvKGhb4NhgY/FXhpPs0JrT3Zjj2+soqpvb5FFj5Uczo+WLBnPomDCD8M852+",
    "qgI8Pm5yILzPF8q+Gwgxvg3Vx746QEW/LbWIPgcdtT68ojU+bVnyvt6sH74RoAS9Tl2avQ9a6T1e",
    "+4Q+Qmf1vmwX3T5Ztvw+3uQEvyb5F7+tcW2+ATIFv5ZRKz2VJSM/U2zmPbk/Gb/IR6q+oYOiveBH",
    "kr4ofJu9bi4jPo+IBb+w0so+78dUPtQDH7+rnQm/FPoJv97WWL4K9bM9FyQvP/CImL4jVje/EJOz",
    "vgtc8b6Ku9O+koCAvnSagj59aQG8yVIEPqSLBj6f3Oq+nr/9vogpg75b5+Q9ZLVyvoXuQD80H5i+",
    "tTF9v34Dyr52WOO+U2FSviESY77sAey9qr6pvh2qGj9h+Og+ojIVv4tfNL9FjyS/VmK8vrfI1r5h",
    "3ns/ElPQvmOKUb8GcBm/3QA8v3Vot77SRxi+srZ3vsBzwr2DsiA/RLymPoKLH7+b+lK/rN5Yv6He",
    "VL6hiwq/zI0rP75sIb9I5GC/ISM1v7kocL/h7+K+/kh6vL36yzmEkqM9AsAhP8JICT+XVye/Ongm",
    "vxEOVb8ABZC+riWdvkNufj96Ej6/uaFUv/hkbb/KUp6/zeu1viOdkL2+/pG+D7ANPgaQUT9waC0/",
    "ol2AvwTuV782N4W/t8EKvqTeLr+sDx8/Gtpkv2iWfb/NPpK/A1Kmv1H9GL9LxqQ+eBM5PiHN+74H",
    "Bjs/n2hwP3i9jL/QQne/0VySv7l41r4WC2G/XC5OP+4UU7zJADW8lZ6GOrI6E71PGQC9uyc2uqmc",
    "gDwHAIS8MGBjPLnbiTwkXU03QVMuPWjdlLvwgQo6y13MvOGRury3b9q4KIwZPO1z1bv9pmK7Mpiu",
    "uUasTjyoQha9QOlXPGkbobyaluM7SJ1RPDQC/7x4hp08oscBu9LtZrx6fwQ9l8LsvDCfCr0djhk5",
    "hzKkO81BBbzy8f474OlQvd9ShTwavOq4NLXOvHnC4bwEJsE7DfyXO5drhrxSkHW6CyUZu4v2mDwW",
    "0K+8v0CQPA7C87kkB7u6n/8IPLtSQ7wFUvy8YysPvSiPlTzjQhe9EbWZPHIlhbx0IKQ84NanvCOV",
    "iTu1du86JkZiPEwOH7zm3O472kf1PBC/7LyF7Jw8e/K5vCg7lDyH9hK818riPFivzrvh5je8qGai",
    "PG4jwrs6J6W7fZWVPMUv5DxHA4g8n28evUU40Ds+77Y7hsmMPGgRrTwF1qg8/rQkPCkuKD2lARq7",
    "sCpOvOg3x7zdodm7vAGJPPmF7DqtBPE8RECmOtjVF7y69gI9MZccuylPyTzrrzC9Fy7IvCx0D7zk",
    "Jpy8SbHZO6kkWDs6k8o7Bw2DvB7zf7zFnzu8rBoAPZyTkLuouZ88q8J7vOtc4bwX3FM7VTGiPMkc",
    "B71dnyy8INlNPKYXsLtA48m7FDV4PH44Qjtq0lg7AHjnvsERsr9wAQq//SHAPz0L0L+UWtS/szaD",
    "P28XoD9oN4W+zfRLv6c0XT9ropE/H7V+P5enGD/J/N6/LXyhvxqgDL5pC1a/RPibvm/rYj8+E3W/",
    "uBufv/FQhD8CX0o/DgGKvmrU576+mNM+UySBP95Y/z6s8bw+iJGgv5tlJ78qxqa+EXk2v0EyFj68",
    "AhE/920Rv0UlM7/TY1w/iB4cP+i0pL6ek1q+q6nSPkrDSz8bYjI+lRgNP6NckL+d4sm+Z9aQvohc",
    "qb4jPLE+8X2hPlZS2L6zqXW+jbQhP5voAz+1akW9r6MEvlkXtj7srFc+hQMvPo/0pj4w+AW/Q9gX",
    "vyJ0v72+Vqq+Oy5FPiGy4D0zYpG+7E4XvvkUyD5w7lM+38YzvfHqNz2jA1E+Wk+FPhhwij0qp7E+",
    "JyN9vpQbUb5gZ+O9gOzSPMIXAj6ryEC7CBfPPf4/jL09KgI/BhHMPZl2a7tYS4O9lT1lPD/mzz1p",
    "W0Q9WvYOPq96er1CVi28+HoFvruZKT5k96o+rDkRvAk95Tz5BFg+KI16PV7i2z1osHw7Fe5tPqzy",
    "NL1DLwi+mbIYPp0TBL2aXec9tR+Gvo0FiL13vWc+Wm/UPny5ib7ivko+rd1SPq2GYz0ljY29krfo",
    "vd0RRj5Nvg2+l6dxvtKmtb00+Mk9PA2DPnzsYb1gLcE83L+xPmDfLD07V6O+2/nSPq1v0D5zLOo9",
    "JcmEvqfc6j0CIxQ+v0wGvviUj7wWbFS9z7+jvh5Y2j7wrXU9VXgXviruGT/hnYg+ZVQAvxh+ID+V",
    "Thg/hnJTvb6r2b4nQmK+mYuYPrpoA78yIXO+66hYvupDm778Xg0/oBiAPvLl0r2dWx0/mfXBPkSD",
    "1b6ZV/0+X+I1P+23gb55DMK+tAPCvh7mQj79eo++btLJvlvt9L3kHiS/cLYHP1lL6D7DyOK8WAdD",
    "P2a9iT7w5ge/25ExPxs7MD+tOna+Lh8Xv/40or6kb5c+FGnUvt9z876jNrm+6MZrv0cFPj/AVuw+",
    "pHMPvMN3Vj9Q+0A+mw41vxSlVj+2LmE/s+nFvpu9S79iuAy/tB8sPqnrA7/sDke+GVgCv11mMr/Z",
    "MPs+ZDRGP/xvNL0iKD4/dlGYPq1JX7+kX4U/bsmHP5/9Ir9Tjz6/r4yovpZzFj/et2W/MYP6vkCc",
    "HL8irRu/SHk1P5pKXz/ehmM99ZGJP1EWOT6692e/oU9hP/YhdD8XdSO/N4GBv3xU374d9/U+7vw+",
    "v0GOHr/DtFK/natCv5thcz8X7ZQ/yxYuPzD3ej/M0BE/a7V1v89YmD9yR4I/F05mvzUgY79VyYa/",
    "N/NGP7dSlL8LIFW/EBmEvzQScb8X5ow/GySQP9Zk4DvrtxI7jH+VvPEvoLzmlwg8W0AgvHiZQDxQ",
    "5bs7FiwavCm7tbs9/Re9n9X/uaFhm7skbBS6xFvvPAIKNTvk1Jk52yHLuP0PC7ybheg8ySwfupiJ",
    "0DyUaWk8dHtvvPnUkzuogrg8e5XluyMDADs6GIa7MFJtu7nwgTwt3YK8xVjIu9P/ZTt1S1W9uPbF",
    "uyBaDDuZRgE8bbFRvPJ4mbyiJ488ziBgvH98ETyrb9w6GiB0vKCbGrz2hIC85QyiPCT+eTtpfAy9",
    "gIkXPdSX5DxvvNA81vWTvKC3ILwtDzy8JtjwPFgs/TrKRcU7rTCSu0QZ4LyLdpQ8Zng4PS5Aprtf",
    "3Y68T+lUvFRrSLzxq+28oW8jvD4b0bvo9PO8uf8PPLJZDbyDErq8YJyEOvGnAz0Aouc8iKm8PFNd",
    "vDycG6U82NJ6PHy8lTwvryg9LN7du0FQjjz4Wde8kshoPEIw7DzJW727yLkQPTFxkbxQpwM9LXV5",
    "uyJsDjwjhNO7z25iPBQeCrv/EcE8DQnJOoHoyztyf3+7mTcePJtZBry+OnC7jOnYvG8QB7wC4OC7",
    "reEAuyaWATvPafS8UUmKPFx1Oj1vgtM6I/Mbvb1riTzfcY46CBJMux7JhzsycbQ6+61Lu1/MSTxu",
    "i887Rkylu2QdfDxRaNk8spPePIBVlbx3gjY7r7NdPyQrm77pVx4+EvYov8j4V7+YDCg/Ua8svneK",
    "jL/QRgk/brVPPfZSSL6lATa/OjP3vjsdjD+BE5U+MvKLPzkRLT9ffhO+CZgAPlCdG754hSm/kV2s",
    "PtStUL6yLke/+BZZPQobWD4vxhw+ZEnJvhgkzr6C7zA/c76NPptAQz8iejY/ePq/vpKyjz6unna+",
    "+kz1vk8euj65JJW+MK68vkaFGTywSxI+4HecPqnVlL5YQVe+CHMUP249dj6gpyc/UIJnPgFTmr5A",
    "CbA+F1mVvj2E8L2IVJM+plNOvoKpHb50B9m74WnQPhMJej6ujBm+UZ80vvl7rj192Yw+/MUPPzUD",
    "rj4Jqb2+RWr+PXjUwr37O729s20OPhuPuL3GThm+wb0LvfrYBT4kLsc9oJ0GvkM6lr1r4qE85I8R",
    "PjRZVD46SxQ+r4euvqUtGj7ZoyK8koYAvnHvDT6Jya2+4An1PFdNeT08UKc+IysWPaMD172IlQg+",
    "TObmvd+nuT00VsY9GKAEvlSPR77NLRk+HNs/vpIvyrxGxoM9BkgNPPZY0z2UGFe+wR6VPqJPHj4p",
    "7hI9lgOTPtNWS772O8c8xOcTvQ+ZQz1tlzA+JpqvvQBnYj6ibt49H7TJvZXSlzt2bhw+Ag9tvgmH",
    "yz4HL/k+ZccIvSdfPD5cav69Eq7xvQyUprvgN8C8LLvIOyfZ9j0IUpo+PkySPv8T2b3vOJW9g6qz",
    "PgRw373oZQE/ufyEPghNLz60ZBI+lAbavkioKr290tG+L6uGvhPafz02/bY9r/rUPh1ZgT6CrIe+",
    "qPa9vSGe0j5j2aK+FwQwPvitiD4ZA5I+V/KGPnyV7L45HjC8oJaovdmyhL6CL4M+rA/UvGqBaj7t",
    "xZU+EfWkvlAW/z1DTtw+0urYvipLOj67zYs+61GHPtn2Yj7aYOa+XjCqPFgmu74L/SC/+YTbPqI5",
    "IL6y4/c+kpENP579+r62T6Q+HIoCP06UIb6JQAm+QNZ3Pq3qwj6bKME++MH2vslAD76X656+cksT",
    "v6266T7znNG+XzIcP2tpMz8tz+S+WfDOPlBOPD8OTB2/67ohvmunozwki5M+7y2ZPjyAyb7EJ3K9",
    "BqE0v27DGb8tH+c+wt0TvyYlQj9jViI/JxDzvnTkSj5zYx4/xWosvwfll74q8z4+EfKIPoQJmj5c",
    "kjK/6u/OvhTCVL9kQmO/PUxWPwSqEb+sBzI/DCVPP1IoMr9Lav4+qix1P7u/R7/kdS6/ly5bvoD2",
    "Nj+X9Kc+BiAzvx31x77GgkO/o19Iv1efOj9zDuy+NAlGP0Y1Pj/HfhG/CE0NP1r7PT/3mQC/DMaj",
    "vo4Qi76TfBc/FkfPPsMKPb9BNRy/GWlEv6jrxTwSKro8GQR6PFPzz7wElk48heOpPKZfBLz5EZ+8",
    "uCpsPKDozbyFcj+8EnTuuwaiq7ytAyS9gygLPcLGBrw97O+8ERANPQDcJTurXuA8yKv8POTwmLx0",
    "O2k8Zw94PEW8kryuS6C8C9izPDbjdjsRfLO8dc6FvEJgC7pI/W+8eJscPYwiNT0mi448l2gVvObD",
    "tLwNgyy8QbBIPeyj9DwnRHS8Dbuwu1qJwTxCN5y7R0Oxu50wWTxHbKU8zX2IO3CZRT0VarY71mMy",
    "u7EyCr3+Ppy89a6UORt6+rqeDNG8dR9tPYNlVjy8cQo8GdGnujRK9Lqs4SC9kwoxO48loLyYfNG8",
    "cp8MPV1KCTt8jgc8ZzmJutJzB7yMPb28WXGIPJ+Nm7w3M7y8XP+8vCrbDTxdMTM8LchyPJhU17rW",
    "tQ27+enePKTW57xySGk8WxiLO49dF7yoRIm88Ur6vGH/8bzOkLy872Hau9hkKj044FK8iiVSu8Wn",
    "DLzI1+i8QXWYvHXA+DySizQ6+t3zvI/sKL20WOA8xrHIu7DD3Lx/yH08vtOYu8QPUbw/E3O6vJjk",
    "PGd0mbxqF4I8spYzO7bkLbxnkAA9XpvZuyMAazs5ahm8bwXVvFmX3DtcQa28eXERPSVbAD1XMTa8",
    "s4s9vPw8h7yOBQ49xvvBvGxAtrwOLJy88f6Hv9085D5EvZK9jG+HPcwQjj+kr2o/XBmFv057lz4W",
    "hFc+eOpLvY8Xdr/s91Y/rPNYvoPOkz8xfFS+MU4jPzkfL7+TMzc+cKG5u1yGhT0QxSo/V50OPzsa",
    "Gr/F2go9Zw9YPjXRDr5vTt++A0YuP6X/Zb4+K1c/B/qhvlBNvD5AmPi+K6P5Pr3MML5ub3s9mku5",
    "PktYyT6BRti+hxkEP03Fkz2ZtYk855KJviIvsD5vPpA+KPsWPx0Olr7BFW0+D/dGvpFBpD1Fra++",
    "T58qPxOnij4EMYc+0aZovpuvoz1MNpU+rPMnPg+oc77kwI095s6PvrftpD7fDEq/M+G8PhbCm715",
    "Epm+R/qkvo3MJT8Tb3I+SkCXPYoCbr3Zj42+Wf07PUL5WT4Q7oC+OOAOPks9VL6G6Pw9FRIuv42V",
    "Yj6tqkQ94FwyvrkHpr2Wo6Q+XoehPVZHHb6aeUk9iRUXvcx+H7xCm/A9SEZxvayZo7xPQD4+j5cn",
    "PYwyYL5wMmC+k1LzPQW6875bkYG9mr7cPnEwnj2l22m++Km0PNT3dr4YvIu92k5WPvGlDb3+ESi+",
    "4zqBPiW4qb6W4Me+z3cmvvgfXD5Cq/i+LiGPvu4hgz49+rK9lSWzvg8PRj3n0By+Yay9vXEqYz4p",
    "bjA+R0lFvn4Wo72ucsa+P3hgvkF5fb405pQ+kwJTPRIUkr1ekIg+sRpJvu039L5PLIY+apyDvrcE",
    "dT19Uci7gNKuPvqoSb5tEZc91n2/vtAoS76t4JY9HiuvPvxksb6zFNK9IFRpPrmHkL6wb8m+wLM5",
    "Psvf374h1ni+0XzoPA7txj5wKdm+8FK9vfoRB79mQ5e9JMXEvkvU3z6irCq+E41NPr+83z1eL9G+",
    "W2fQvlc/kz7+YHC+BnEQvjrsKr5HKBE/6K0Fvy0Upz5dGjW/Tdqtvk00A74FrsQ+P4vYvrziHT5+",
    "lzo8TdTdvhvWBr+/ejg+As5lvuwHtL7SXyS+GXkQP379E7/jaQs+e4U3v2SDC704fdC+6D7qPji4",
    "nb7Q62k8VcCZvuKrE7/M9g6/UnyPPvk8ND5Nyvy+xVOEvZ/lJT/sDSu/XILLPsIQM78mnO890S/Z",
    "vla8Ej9Wmr6+IJaKPuGxjr7yPCq/1MLdvoYbsj6UGTu+ab/HvrPRj75OZF4/6dxPv1IuaD7P2W2/",
    "ukE0vqtbpL4VwyU/vbvRvoSPkT5HRxC/HDovv8VvBr9acbY+lxoJP1K9K7/IP6q+n3QwP+S9YL86",
    "kSY/WHBYv2MelT4cGBO/OzBPP+QfBL+LHAQ//Jkqv62kd798XGC/JthgP/8SUr4ZRuu+ej8xv88a",
    "Zj/HmmK/DlETPq7HYL8hTqg+XhwZv3XSzLzK3lq9SMr9u0EeeTyn9vc7AfoWOzmB5bt2tlG8qei5",
    "u1nr/juAjhC9ZdpuPC/07rwIbE+7QetPvNgs8rs1qqu8dlq9vKTxmLtkQ7K8tiJJPaH2CbypzFi8",
    "iQI2vJiUsLwqwEm9Kwusu78Exzv5hPe8jBL9txVfx7w6OGG6qqHmO+SjHDxQHgw8G0VpvOrqjjy9",
    "axW8nRjgOyg4ZDzKucy7qdDTvK9GRjw2b7i8AGaTvLIRtrzKn4g8qHhhuwbwOL0T4W08CekoPd23",
    "Ej3xGz2891uyOrajIzxp0JA8lK0DOiHvtLzGCnQ8s0dGPD+u27wddve7hFypOzfyjbl7Qyg8HYuA",
    "PJ/bLTztViW7heTevGH8RTxNq+M8JOIgPYk4bbr6p3q6FP7qPIu56TzIBNc7emBlPKG8fbzYGjs8",
    "6omJvDPvT7ttMjO7uBwevMMiLr2bqom8pjTRO0dzxLq5oAW8bNkHPGsMXTx3iog8a6iGvN28AjmW",
    "M+W7VIKSvA/b97yxNha7g7eRvGMOLz3cCRe7OAeeuzXDB7wLSBg9mgudvKfjaLu/1YC8O0k5uwKf",
    "ibrMTrE8FcbqvOxNRbrPCwM9mIwsvDWjfrsuE5S8K95XvT4vH7tn3L0859AevCynGL3giaM7xt2i",
    "OtwjoTwQaJI8zim8uxn2+ju7yhS9Xu0rv9DrKL8HD28/YBFLP4Nogr8TEA+/0xkxP5wIBD98/to9",
    "/s9Rv3M5lj92vRw+jj93P4eKFD+ZPMo+NVhuvz8JxL7/pHe+vQ4DP+WQ4z7YNSa/lf8Qvkme/z4A",
    "+9s+aNTWPerkA79IEy8/LMXKPdksJj+QWbA+Zd//PWnbQb9vZt++ntrfvkS+2z6yhQ8/O2AGv5Xr",
    "nr7l9sI+3yX/PZSdOj7vb8u+w8fDPkhoxLvVJKs+zVGfPuqPyTwyVei+CRvBvuqX9b68emo+7S+M",
    "Pu4Ltb6fk8y8UAjwPv4Dsj7pUI4+nB0Jv1Xnkz0Pooe+AKJsPq48yj7Ux4E+RN3Evtz+Tb6GS52+",
    "9iLiPn3YRr2dolS+x0skvs4XQD4dq6A+l3yAPs7Bjr47yHo+uJtIvq0Umz4lhsc+v7uYPUnOSb5f",
    "ttq9pa0ivuEoEz63bSa9xSimvWGL8LsnDQ491xu1PmJERz4KDna+cXhGvcYhN75/HFI+2/uFPvDm",
    "TT7CEvi9rqFiu9CNCr6erRO9jwKXvk/Y1LyYF/G9cqiwPQFshz2XPg0+HBT4vffvf7z1GOe9Kkve",
    "PYhBBT5GMT2++3RSPIHbMrwUyK+9ytI0vZYbxL5ytKY9TGmGvaPXJD4Oqfw8ym4HPr7kRLxcpEG+",
    "lx+DvtJVsrxm600821NTvZVehD23cjM9YTPlvIVyD748tHC+KRkiPvGwOj4LNFS9EM57vazPPDq7",
    "+gm9O7GXvg1b676MNCO+BhnyPBVzCr4kMgU+FjKZPtdnoD056bm+Ai3Tvk+3iT4oZDQ+CG/vu/8b",
    "7T34myK9C2CKPTSL0r44EQe+tL0xvlTxEL5TYkW+TReBPunQWj4p7jc+8TCBvhDS9b6cq4Q+khDO",
    "PqPpp72mGpi+OSPmvb8Iiz5NTAG/jPu4PvZ50b57GSe+veKvvgcDkT6UG8c+nCvFPg0zwb6twbq+",
    "1R0UP3Nr0T6aqoO+M5cTv5BBQb4gSSA/KrIBvxwLJD+URia/OOC1vt63Hr+1Byg/3nkhP/gpAD9W",
    "TNa+/Qwbv0IFBz9dWrw+VgIDv5zE1jucYYy+UQDtPu6UGr/yPIY+XYblvmuxur4rsxq/wQ4HP04x",
    "KT/yiBg/p70Avxm3Fr/hbRE/oynrPk/kFb9vP7++zpgivhYXEj8/yzK/bykKP8oX8r6+a5e+3/so",
    "vwSEKj/4DTw/GsciP40Hgb5IhAS/CzJAP2qILz9CHka/UIGCvbTq4r6Q5AE/oc8wv/5Q0Dvc88m+",
    "h7ekvgSyQb88Khk/BhFMP9qkST8dwVK/Hh0Kv5y0RT/ldkI/CukQv5v5Hr+XGjW/dj89Py6tRr8p",
    "kLI+W9A0v9IOSb9OzAi/F/lDP1rhErzOh5K8WmuRvEqdDLykRAU8Z1YiPC5hxjsuC5U8U/stvD11",
    "rrxy9uG6FgssvQV5iDw0lSE8sOooPArKtbyimSi8masEOe5yqbxHXba8xieVu8iGLzuKbmC8iS+n",
    "PCh0NT1+Gjo802OBuyx73LvttQM9OTTCO3ORRTwF7I07gFI+vHI1+DxcpaS7JPY9O7R0Mb1YrDE9",
    "faZ1PFtYC7sUNYS8tMVNvKuHDb3hQRY8QeKRvFNxCDxWEhE8yi0dPR2thzsuD747l8QjPIaSTbzW",
    "WKK77ofXO92cvzzHl3g8OMmnu/adyzxmzeq7bOb2vOUpAz2+pIw60IcKvH2Jv7yg7AC8kdoOPQfl",
    "mrg/vTs9XUzxOsGAxTzN7go7tgf9uwJe6Lup8nu7wmO6vPZrv7xlkBA8uDTaPBygnTvT2i47hTmI",
    "vDyByDzWQrs8e56wvJv8UTsCtaC7lkbnvAbxCz3P89E8Pl4HPI0d+DxP1wi8KK/0O4DN7TxlL4O7",
    "PTEDPJ3Pj7xut3Q8M/zNPFUukrycdGe8F0OCOR1q8zytqw68ejN6vKCsQbqwl8Y8P93wvG0+Dbuy",
    "QeE8o3sJOjL3lbt+QJU88l++vMvZLD1i+yw8RP/eu95+IjttGBe67Tupu2pVxLwBF5G7ancLvTYY",
    "5TxPtra8C4VtvBQ9gbyb1248VrGoPvZ3CL88ALM+tWSKvt8H/z4JJ1c/ih+wPcN4nT7oUUk+rK77",
    "vhcTZr/VYJ+8/mMNv1qNZr8eJiM/VjCCPgVmyD0p9Km+jXGiPhw4Ab8k764+FxQyP4a9Dz5o8Jo+",
    "S/A1vuzA+b67qSS/HPMoPhTZJ79aCDO/iRjVPvkGqj4DG7Y+Xb1CvjFo4z3Pz/a+Jbs5PkQu2T6t",
    "j+0+f0gDP5q0qz4CN/W+vbEBv5mvFD83rsS+Ae3zvu7hxj48Os0+7O27PgepJb7IcYA+wOf9vsV+",
    "Rj5+HI4+cYAbP4aMoT6S2Iw+SC2FvuQJXL5kmu4+FzZSviwiZL4xX2Y+TwXIPkKmlj7iz0K9kxVD",
    "PnJZ3r5oJ8a8lBZUPhVFwz4/8Aw+yjZRPt04fb49z4K+n8LHPqnJVb42rUq+/w9XPoPTIz3PFAY+",
    "LqNQvfYZFD6f58G+4i31vVk9R73eQ7Y+7dwnPncbHT7bLUW+JNfhvT2phj22uYm94HmSvTnOEbyv",
    "Qeu9ceLDvat4RD3SIzU9Tg9SvgU3ZL6xAXm9ZtmwPl36Fj1ZSzw+/TmBvWNdjz0PHMo+HyYFPU1O",
    "PT3maBC+1MfzPPq/t70PVII+fnKMPdhoW77Mn8W+Pwlnvo+dMz75Qze+rmJdPBDMVr06PjU+AJyZ",
    "PmkDpT3x4CE+SWqmvpog3r2Yyo68RRDjPWBhxb0X+lG9hfq5vvrUv74qa5U+lUfEvnBTMD75pjA9",
    "VsDAPlf9d76JvWg+tNB3Pt1LA78cRN87KBCuvdqsmj5xaSi+uscOvmUC4r5L5Pq+Lyj7Pe3gsL64",
    "vGQ+8yaGPdJ5tz45di8+GcCbPnvjsT6tzgm/W3I9vggCI71tBtQ+CX1nvYpwRzrd2wi/tqcnv/mK",
    "kD5vzw+/dpuDPlprAD9DihE/3JdCvjsIOD4quw0///UVvwrMVT2maZC9whDfPnojbL5EFtk+lHko",
    "v98YKb83dg08bI0Nv45F9z0N8bY+nT4pP3KuW76DTvQ+t6EUP9irK7+UBC2+5Tk4vobRKz+uLWS+",
    "ArBGPjp5Qb9tsy2/BfVqvvzUDr+lEnu+SMV9PgsDPz+eIcO+CA61Pu0gOD+eEke/ncl9vur7tr6A",
    "UiA//vbGvm5isj6mzmy/M4Z2v1jL370aVEm/lHMSvdprIT/2X1o/yWiPvqgp+D4SU2I/RfFvvzaO",
    "Db5TPzi/u/dFPzLinr7Yovs+d5OFv4uvh78lwAC/j7g/v1mL9L6hJ1Y/XzdzP0D7sr5iCRI/tRZ1",
    "P7JFer/liqi+ukY2vzR0gD+C+5i/9t6UP6rzjr8cqou/V/90v9JWmb9pANq+d7E1P968Qj/smsu+",
    "S9KMP3MBiD8xxI2/BjoBv9487rxmrQo93acQvJmVCb3jjyi9j9wbO8PtDrzzC8g76juNvMUAc7zv",
    "pxY8xZSIu88XOjxKnDG7u/a/u0rV5jsFzNq7MjxdO3ZcDzwQmCm8X3gku5A/9jpCR1g8sIGUO+qw",
    "mjsFUhQ8jTXRu3Zr4jvPYnO8/pIVvdxXAjzejCC9w9VXu1o0+Dy/52c8Eu6nvOcTbDyjdJM7SjCK",
    "vNgCELtYwDG8+iPTu+Jo0Tt4jf686/2HPG/wIj0atVq76wugvAmzB7yOV8Y8E24mvI3zGDwaczk9",
    "GfhsvLpr/jrfzDq8mUXyu7Z3GTsXGXO8vDYUPPb0ZjsaQr48jB9gPNgC+zssJPU8/aZ3u2nnTzxs",
    "sE681OPqPIzRZ7zliKE8RBBjvL7Hnzuz/ae8p0FuvAYvlLxeQhw8oyM6PMT7gjxpIRM82mlCuys0",
    "bTx+9QM9WjnHu9+wWry8ClE8TuYsPdi+SThD9Zq7A1WVvJBOTbzv24m8bZ6NvFacuzzExt48y6OD",
    "O2Z4hzvwB5c8SHwrO0tkkjs3z2g8EmXOOnxJ5TyJ8Yg9y38jO0XZBDwRD2S8kfnPu3NNjjsGjDM8",
    "iGKUurrFrLw/NSk8RtsBvBr1LzxDteG6cfHSOLp4kjpd0CG9CF7fPJimfLzyHyE8q/FfPM4jDLwj",
    "UMe8SaZnPEjRhbzLV4Q6YiyYP2SkCT9GfLc/+4UbP2bdPz84GXy/Kf9uvkArYj8/Kr8+5YKKPwkh",
    "Xz7Kyh8/yKLgvqayZr/Pik8+5NdjP+jtID+4us4+0UV4P1YBpz79F2I+FO9cv62ORr0BxMg+bodQ",
    "O/aSAD9l8nU+Xe0WP1Pyib7SMhy/2W+2vvdCAj87o8w+abXOPoITBz/iBgo+7YWTvS63Q782fLQ9",
    "YmoyPpcVHb2wC84+YO37Pp2WLT/ZdaK+G50Pv+kei75WU+M+DzA2PvmZoD52Oag+xsJyPdlQir1+",
    "NL++gvDAPuxpqj60NAC+MtUOP7Nvwj5J8Fg/a3qcviTKEL5twuI89wWiPst/Oz5IVyA+pBqqPpSA",
    "KD5J13S8ikinvlzIWD4rZf09QYmVvQpYYz7ZyqU+runYPh24Ib5Fa1S+FpTJvbSnzDypfOi8fXO/",
    "PWw3Kj7QTq8+/ozZvWnVk759GpI+/gnuPQ7LBD2pm1g+7JpfPuwJjj4TcxW+FsjtvY3aIL53axW9",
    "ZsjMPdGPsD1xWhm93onkPlUgb757rp6+9zqIPl6Wxbrmz4A9prNAPtoWjr0SuQI9rUyuPPNTSL1b",
    "iJC+pJgwva+mBL6enkc97GAbvkoH9rx66q2+BSaRvkWM4j3IQQw97lrXPRSVrztmJxg+QeUTvp+S",
    "qTw0YSE+UK6uvp2txL00P7C+BfyUvXIYfb5R0sS9xq2Zvm8a070xyzU+YTGCvneuF73kvfO9k6Og",
    "vZaiqb3Ffq49YBNKPlPH3byy6e69vN/FvqnGl75R3KO+VHo3vs9Lo74fNA8+peg1PtDh8b6Yg5K+",
    "gfNivpvPNL6R3by+ngxvPnQvyz73kX0+Fxu8vgJk4b7c+Ja+2P4Dv5Vmhr5b1AS/oPpUPvsCLj6O",
    "3MO+G/N+vrNAtr76xMG8VeXivlHzUD7QuAc/Cqfcu8oGb772ywS/t7nLvmVcFL++Tpy+Kv4yv/ew",
    "oT6p8oC8u2PrvklL9r3dIwi/b3XwvcGxFL+b3oA+q4nxPgNei73vquS+J10Wvy5UFr+VSgi/mzcc",
    "vwgphL7E7f0+6WK2vpBUCL9Lt9+9ST85vwIgIb55NEG/lqRJPhhf/z7J0k8+JuoSv/PnK7+MTCi/",
    "QP4iv8pDLL/2uA+/UUAQPyvC/77RSCO/DVBhvc1+Ub8D6aO+FvJDv2ApoD6pgAk/6Z1DPhU7HL8X",
    "ujy/J61Pv6+5QL/QlWW/oaU1v9kQRT+CxAq/yB0sv0jr471xm22/zda8vmkTT783Yqs+q0cpP7lQ",
    "1z3T1S+/omFSv9u3Wb+Ummy/BgN2v8197L7KUnI/CjDnvpDuTr9R2om+CUR7v/+omr4XnWi/x1/b",
    "PmhqXz/nGAI/r5dKvwuhvTw82a+8nfoquwud+zzHeyE7/seLPEA8Pr2u+Qw8raKCO+MM0rphKQq9",
    "7NBevC8JlLuSM9u7WZWqvFekszzVVp08/gzKu8KO7zwNHre8VA7eO4vvBT02SUY8wDYHu9+cLTwa",
    "ea+6LOMfvLfaa7z7VJA6NZcJu40i4zseI4C8Ap3DO4eenDyNJjq8WxYBPW7fZby6rGa8E1xCvJTb",
    "w7zNYvq83+K9vKCIrLsem4a86vfoPKsukrtclA+8/xhBvBp0CDxoW6w69Y/CO2/zgTy4kfM8R3yP",
    "vI/6XzxdQZg6C3uuO5pRM7zHZkw8BidKPEmZ9zvh0G28JU1lPO3Fk7x17+28zjSDPA0GAbvP2Pe8",
    "tcpWvHnvSDpDr5w8nUeBu3WRerykpaO8dG3SvOk2AbtksHC8CHhKPAS7Wrznsqo8SDx9uxtAgDrZ",
    "Jey6lRQeu7QKAT194Vm8JdQbvFkDi7vsvlU8WRaZvC4h5zxFD5W86wAqvBJCETvBvWA7DnyPvBOe",
    "jTw03RE9uXa/uMXnczwF5G88ad9NPUbuoTt/RBs8jqqJu3kwAjxlhn67nOO4u3NUWbvofpg8FV2i",
    "u8SpjzzuFdi6E2zCPLzQs7zs/qi8i6xRPFPg8zw9fAK8Ddwgve6xtjzdFSY8a9VXvKGN5DxFR908",
    "yCMwvE7I1LtCg2E8/ekvP63jHr+bYnm/HYomv2Ujfb9PcAO8iMtLv9auLz8c2z4/Y2hyPv0kIL+Q",
    "Rw6/R9gVPxT+bL+04s2+ktqPPwAz6z6UEnO+Y+tXv9e5IL9fXzO/fb8VvoMVQL+CK+M+wrr3PnhC",
    "pD6T0jW/nXsnv9D9Ej8kfUK/TeudvoFPMj9zZFE/I2nXviyuCL9IHP2+t4vTvsv1Or4rtje/uObw",
    "PhIBwT76wGo+20kfv6uxIL8l5vc++rzbvjjIT74zPww/u5CZPrunnr7/Qsy+b658vtHhvL4Oc3++",
    "zzXXvpWhoz5jbjc+jHoPPrxKkb6kI+a+IfLHPmRTjL7+NkK+3v44PsIRZT7/8Ym+FK+ZvWexIb6m",
    "6x6+2ck+vlcfq75HRWo9tE08vZ3fQD4HxpW9dgllvg5TIz7RzqM9VAA7vq8TTz4jOwm+Ab3Wve87",
    "lr6OByK7ROEOPQNTIL5iY9e9QiwKvZwZw77GVXI+h8IXvoE29L1sAV0+X/adPuLkqL1J+LO9pllr",
    "PfJJsD3TWvy9NOIWPmM3eD33i508MDdNvNvZXr7KUFK+W4YVPthzhb3wCes6mVPYu7ikaD5wdUu9",
    "s4YZvuVWM72q1qG9vTl+vZygjj5h0IU+rXdMPGzaBj7cw+K9nubKvgN3v701wJM8dj3mPT8J6Tyn",
    "JII+JCWovYoHrb3bPaW+JWWxPbn7Yj4QCOU+8cnwPqXklL4K0Q09WVmyvfPGEL/B75G8aYBsPqts",
    "AT5Jo/27evvfPo/MUD6HnPK+WXyYPabeMjwx3Eo++qwAPwWw0D6ShcE9jblcPhT1kr6oRwa/c4cI",
    "vey0mz78cVs+eRn9vX97xz6i7AI+JR/DvumcVz4Btue+I9dbPlBSDz/oo+k+vWEwPgHjpD6K/qy+",
    "36YVv2qLLr3f87w+5OHhPo6Lur7lfc0+uhQ+PisCgL7Aq4G+oV6VPklApz4bLTg/95vcPuZkDz7H",
    "vAc/9eCcvjwcBb8Qxeu9XHIvPyAezD631Zu+xR64PmrX3T5knxC/Er25PLTHQj6FcyM/ty9CP9QB",
    "AT+j95Y9e2QsP5ccbL5YE/m+d+PHvsXCGj+N8hU/MeT/vixiWz4E588+Th0Kv/trgL+uMGE/8ybV",
    "Pm+hSz+0yk4/rohTPQ3vOD/M/GC+FlkQv16uq76bkEM/Qk4VPyYhqr4X078+P0JuP9Pfjb8SnVq/",
    "TY4EP2btGT9sB1c/Ln1jP5a81D4aToI/9TIfvzQWJr9XT1O+MAd+P3AyWj/arwy/1NtHP2X8ZD/o",
    "Vni/F5uZv4dWsz+r03g/X0dWP4duWT/2mow+P5RpP1MZSL95MCG/t5MUv2wKQj8oyGQ/WQkRv3+V",
    "gD8cE1E/Pu6gv4UBXzrcMjK8keaBuV0vzjxGHHc8fDIuOqhNAL1JHwq9ciBvuqmH3jsWjDY84XmX",
    "O6YBbrymLgW9+7uAPE0xMjzNrLs8sKUAvX+RRjx5Glk8ASmovMsCmrwEAKS8AdJ/vKt0ELtWn/m7",
    "I47PPFNZ+DsgLT+8yd2GO84oY7wwby69qGbBO9dKM7wSxME8F6wBu32B1zy7iIE8QpftvCkeAz2F",
    "FAC8OJR0uomAsLy8ejC8ms9OPUJlTzuU5ou9P/IKPciChjsQ1ES8cL1QPIoj7DtKPFG83Zj0PDqg",
    "Mjx9qLI8CyKOOwDYHLpMpmA7uCSbvBgBiLxipIw8livpug9eNzxlkJa5hM0SvNs7pzygozi8ab6V",
    "vB3zC7qmP6Q8DsehPHcUsLwXmai8G/Q0vLhFpry0wqC69TiBPMR56bsgKBC9n6EVvQn2Br1O1i+8",
    "jof5OxKgBr3Q/q47a34sPI1rPT0w5L28A3PXtplMSjxY9ek746Z9PC1U0ztCLmI8Zblsu88FH7uZ",
    "kAy9IBsePfqj37zXZgM7b6wgOwYsjLxp9gK91KaMOz2ICL2/mqg8zt5WPQiu2jy/U1K9enkGPAuw",
    "qzqMV4C76z6MPKMRG7ye4TE8uR9VvLwqo7xffT48HheuPLAuObysyQE9Mv5Eu/j/jbyjt2a8U7xC",
    "vGTEazwGbXk8"
   ]
  };
  // END DATA

  // base64 (the data's float32 bytes, little-endian) -> numbers
  function float32s(lines) {
    const text = lines.join("");
    const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const bytes = new Uint8Array(text.length / 4 * 3 - (text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0));
    for (let i = 0, o = 0; i < text.length; i += 4) {
      const n = (B64.indexOf(text[i]) << 18) | (B64.indexOf(text[i + 1]) << 12) |
                ((B64.indexOf(text[i + 2]) & 63) << 6) | (B64.indexOf(text[i + 3]) & 63);
      for (const shift of [16, 8, 0]) if (o < bytes.length) bytes[o++] = (n >> shift) & 255;
    }
    const view = new DataView(bytes.buffer);
    return Float64Array.from({length: bytes.length / 4}, (_, k) => view.getFloat32(4 * k, true));
  }

  let TABLES = null;  // [seed][row][dimension], decoded once
  function tables() {
    if (TABLES === null) {
      const [seeds, rows, width] = DATA.shape;
      const flat = float32s(DATA.float32);
      TABLES = range(seeds).map((s) => range(rows).map((r) =>
        Array.from(flat.subarray((s * rows + r) * width, (s * rows + r + 1) * width))));
    }
    return TABLES;
  }

  // The eigenvalues and eigenvectors of a symmetric matrix (cyclic Jacobi).
  function eigen(C) {
    const n = C.length, A = C.map((row) => row.slice());
    const V = range(n).map((i) => range(n).map((j) => (i === j ? 1 : 0)));
    for (let sweep = 0; sweep < 60; sweep++) {
      let off = 0, all = 0;
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) { all += A[i][j] ** 2; if (i !== j) off += A[i][j] ** 2; }
      }
      if (off <= 1e-32 * all) break;
      for (let p = 0; p < n - 1; p++) {
        for (let q = p + 1; q < n; q++) {
          if (A[p][q] === 0) continue;
          const theta = (A[q][q] - A[p][p]) / (2 * A[p][q]);
          const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
          const c = 1 / Math.sqrt(t * t + 1), s = t * c;
          for (let k = 0; k < n; k++) {  // columns p and q, then rows p and q
            const akp = A[k][p], akq = A[k][q];
            A[k][p] = c * akp - s * akq; A[k][q] = s * akp + c * akq;
          }
          for (let k = 0; k < n; k++) {
            const apk = A[p][k], aqk = A[q][k];
            A[p][k] = c * apk - s * aqk; A[q][k] = s * apk + c * aqk;
          }
          for (let k = 0; k < n; k++) {
            const vkp = V[k][p], vkq = V[k][q];
            V[k][p] = c * vkp - s * vkq; V[k][q] = s * vkp + c * vkq;
          }
        }
      }
    }
    return {values: range(n).map((i) => A[i][i]), vectors: range(n).map((j) => V.map((row) => row[j]))};
  }

  // Chapter 4: the coordinates of all rows of P on the first principal axis
  // of rows 0 .. n-1 (centred on their mean), oriented to grow with the
  // position, and that axis's share of their variance.
  function principalCoordinate(P, n) {
    const width = P[0].length;
    const centre = range(width).map((j) => P.slice(0, n).reduce((s, row) => s + row[j], 0) / n);
    const X = P.slice(0, n).map((row) => row.map((x, j) => x - centre[j]));
    const C = range(width).map((a) => range(width).map((b) => X.reduce((s, row) => s + row[a] * row[b], 0)));
    const {values, vectors} = eigen(C);
    let top = 0;
    values.forEach((value, k) => { if (value > values[top]) top = k; });
    let coord = P.map((row) => dot(row.map((x, j) => x - centre[j]), vectors[top]));
    if (coord[n - 2] < coord[0]) coord = coord.map((c) => -c);
    return {coord, share: values[top] / values.reduce((a, b) => a + b, 0)};
  }
  PW.formulas.principalCoordinate = principalCoordinate;

  const cosine = (u, v) => dot(u, v) / Math.sqrt(dot(u, u) * dot(v, v));
  const TRAINED = 16;  // training lengths 4 to 16 reach rows 0-15

  PW.register("numberline", {
    controls: [
      {name: "seed", label: "seed", min: 0, max: DATA.shape[0] - 1, step: 1, value: 0},
      {name: "marker", label: "a marker at position", min: 0, max: DATA.shape[1] - 1, step: 1,
       value: 20},
    ],
    compute({seed, marker}) {
      const table = tables()[seed];
      const similarity = table.map((u) => table.map((w) => cosine(u, w)));
      const {coord, share} = principalCoordinate(table, TRAINED);
      // the trained rows just below and just above the marker's height
      const h = coord[marker];
      let below = null, above = null;
      for (let r = 0; r < TRAINED; r++) {
        if (r === marker) continue;
        if (coord[r] < h && (below === null || coord[r] > coord[below])) below = r;
        if (coord[r] > h && (above === null || coord[r] < coord[above])) above = r;
      }
      return {seed, marker, trained: TRAINED, table, similarity, coord, share, below, above};
    },
    draw({seed, marker}, v, W) {
      const n = v.table.length;
      const side = W >= 600;
      const size = side ? Math.min(250, W * 0.38) : Math.min(260, W - 90);
      const hx = side ? 46 : (W - size) / 2 + 12, hy = 50;
      const parts = [titleText(`The learned table of seed ${seed}, rows 0 to ${n - 1}`, W, 16)];
      // the cosine similarity of every pair of rows, as a heat map
      const url = heatmapURL(v.similarity.flat(), n, n, -1, 1, colourMap(RDBU_R, 256));
      const cut = r1(TRAINED / n * size);
      parts.push(`<text class="pw-label" x="${r1(hx + size / 2)}" y="${hy - 8}" text-anchor="middle">` +
                 `cosine similarity of its rows</text>`,
                 `<image x="${hx}" y="${hy}" width="${r1(size)}" height="${r1(size)}" ` +
                 `preserveAspectRatio="none" style="image-rendering:pixelated" href="${url}"/>`,
                 `<rect class="pw-frame" x="${hx}" y="${hy}" width="${r1(size)}" height="${r1(size)}"/>`,
                 `<line class="pw-axis" x1="${r1(hx + cut)}" x2="${r1(hx + cut)}" y1="${hy}" y2="${r1(hy + size)}"/>`,
                 `<line class="pw-axis" x1="${hx}" x2="${r1(hx + size)}" y1="${r1(hy + cut)}" y2="${r1(hy + cut)}"/>`);
      for (const r of [0, 8, 16, n - 1]) {
        const at = r1((r + 0.5) / n * size);
        parts.push(`<text class="pw-tick" x="${r1(hx + at)}" y="${r1(hy + size + 14)}" text-anchor="middle">${r}</text>`,
                   `<text class="pw-tick" x="${hx - 4}" y="${r1(hy + at + 4)}" text-anchor="end">${r}</text>`);
      }
      parts.push(`<text class="pw-label" x="${r1(hx + size / 2)}" y="${r1(hy + size + 30)}" ` +
                 `text-anchor="middle">row (position)</text>`);
      // the number line: each row's coordinate on the first principal axis
      const px = side ? hx + size + 70 : 62, py = side ? hy : hy + size + 70;
      const pw = side ? W - px - 16 : W - px - 16, ph = side ? size : 200;
      const lo = Math.min(...v.coord), hi = Math.max(...v.coord), pad = 0.08 * (hi - lo);
      const panel = new Panel(px, py, pw, ph, {domain: [-0.7, n - 0.3]},
                              {domain: [lo - pad, hi + pad]}, W);
      panel.axes({xlabel: "row (position)", ylabel: "coordinate"});
      parts.push(`<text class="pw-label" x="${r1(px + pw / 2)}" y="${py - 8}" text-anchor="middle">` +
                 `on the first principal axis of rows 0\u2013${TRAINED - 1}</text>`);
      const h = v.coord[v.marker];
      panel.hline(h, 'class="pw-grid-strong"')
        .vline(TRAINED - 0.5, 'class="pw-grid-strong"', "untrained")
        .line(range(TRAINED), v.coord.slice(0, TRAINED), 'class="pw-series pw-blue" stroke-width="1.5"')
        .dots(range(TRAINED), v.coord.slice(0, TRAINED), 3, 'class="pw-fill pw-blue"')
        .dots(range(n - TRAINED).map((i) => i + TRAINED), v.coord.slice(TRAINED), 3, 'class="pw-fill pw-grey"')
        .dots([v.marker], [h], 6.5, 'class="pw-ring pw-vermillion" fill="none" stroke-width="2"');
      for (const r of [v.below, v.above].filter((x) => x !== null)) {
        panel.dots([r], [v.coord[r]], 6.5, 'class="pw-ring pw-blue" fill="none" stroke-width="2"');
      }
      const ends = `from ${fmt(v.coord[0], 2)} at row 0 to ${fmt(v.coord[TRAINED - 1], 2)} at row ${TRAINED - 1}`;
      const near = [v.below, v.above].filter((x) => x !== null);
      const looks = v.marker < TRAINED ? `a trained row` :
        `never trained; it sits between trained rows ${near.join(" and ")}, so to the model a ` +
        `marker there looks like one at ${near.join(" or ")}`;
      const alt = `Two pictures of the learned position table of seed ${seed}, rows 0 to ` +
        `${n - 1} (rows 0 to ${TRAINED - 1} trained). Left, a heat map of the cosine ` +
        `similarity of every pair of rows, from \u22121 (blue) to 1 (red), with lines after ` +
        `row ${TRAINED - 1}. Right, each row's coordinate on the first principal axis of rows ` +
        `0 to ${TRAINED - 1}, which holds ${fmt(100 * v.share, 2)}% of their variance: it runs ` +
        `${ends}, and the untrained rows all sit near ${fmt(v.coord[n - 1], 2)}. Row ` +
        `${v.marker}, circled, is at ${fmt(h, 2)}: ${looks}.`;
      const summary = `Seed ${seed}: the axis holds ${fmt(100 * v.share, 2)}% of the variance ` +
        `of rows 0\u2013${TRAINED - 1}, and the coordinate runs ${ends}. Row ${v.marker} ` +
        `is at ${fmt(h, 2)}: ${looks}.`;
      return {svg: svgDoc(W, py + ph + 40, parts.join("") + panel.svg()), alt, summary};
    },
  });
})(globalThis.PosencWidgets);
